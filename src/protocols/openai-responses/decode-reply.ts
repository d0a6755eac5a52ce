import type { Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { emptyUsage } from '../../ir/usage.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { convertOpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import { decodeContentPart } from './decode-content-part.js';
import { asArray, asRecord, isRecord, otherMembers, readNumber, readString } from './json-values.js';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason.js';
import { decodeReasoningItem } from './reasoning-item.js';
import { PROTOCOL, rawItem } from './responses-extensions.js';

/** Members the canonical reply holds itself; the rest (the request echo: tools, reasoning, text...) is kept. */
const REPLY_FIELDS = [
  'id',
  'object',
  'created_at',
  'model',
  'output',
  'output_text',
  'usage',
  'status',
  'incomplete_details',
  'error',
];

/**
 * A Responses response object (https://platform.openai.com/docs/api-reference/responses/object),
 * read leniently: message text, reasoning, function calls; other output items (web searches,
 * hosted tool calls) travel whole as raw parts, web searches also counted in the usage.
 */
export function decodeOpenAIResponsesReply(body: unknown, losses: LossLog): CanonicalReply {
  if (!isRecord(body) || !Array.isArray(body.output)) {
    throw new GatewayError('upstream_unreachable', {
      detail: 'the upstream reply is not a Responses response object',
    });
  }
  const parts: Part[] = [];
  let hasFunctionCalls = false;
  let webSearchCalls = 0;
  body.output.forEach((item, index) => {
    if (!isRecord(item)) {
      losses.dropped(`output[${index}]`, 'an output item that is not an object');
      return;
    }
    switch (item.type) {
      case 'message':
        parts.push(...decodeMessageItem(item, `output[${index}]`, losses));
        break;
      case 'reasoning':
        parts.push(decodeReasoningItem(item));
        break;
      case 'function_call':
        hasFunctionCalls = true;
        parts.push({
          type: 'tool-call',
          id: readString(item.call_id) ?? readString(item.id) ?? `call_${index}`,
          name: readString(item.name) ?? '',
          arguments: readString(item.arguments) ?? '',
        });
        break;
      default:
        if (item.type === 'web_search_call') webSearchCalls += 1;
        parts.push(rawItem(item));
    }
  });
  const usage = convertOpenAIResponsesUsage(body.usage) ?? { ...emptyUsage(), raw: body.usage };
  usage.webSearchCalls = webSearchCalls;
  const kept = otherMembers(body, REPLY_FIELDS);
  return {
    id: readString(body.id) ?? '',
    model: readString(body.model) ?? '',
    created: readNumber(body.created_at) ?? 0,
    parts,
    finishReason: mapOpenAIResponsesFinishReason({
      status: readString(body.status),
      incompleteReason: readString(asRecord(body.incomplete_details).reason),
      hasFunctionCalls,
    }),
    usage,
    extensions: kept ? { [PROTOCOL]: kept } : {},
  };
}

/** Message content, leniently: a malformed entry is dropped with the loss recorded, not fatal. */
function decodeMessageItem(item: Record<string, unknown>, path: string, losses: LossLog): Part[] {
  const id = readString(item.id);
  const parts: Part[] = [];
  asArray(item.content).forEach((content, index) => {
    const contentPath = `${path}.content[${index}]`;
    try {
      parts.push(
        decodeContentPart({ part: content, path: contentPath, losses, item: id ? { id } : undefined }),
      );
    } catch {
      losses.dropped(contentPath, 'a malformed message content entry');
    }
  });
  return parts;
}
