import type { Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { emptyUsage } from '../../ir/usage.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { convertOpenAIResponsesUsage } from './convert-openai-responses-usage.js';
import { decodeContentPart } from './decode-content-part.js';
import { asArray, membersOf, isJsonObject, withoutKeys, asFiniteNumber, asString } from '../wire-json.js';
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
  if (!isJsonObject(body) || !Array.isArray(body.output)) {
    throw new GatewayError('upstream_unreachable', {
      detail: 'the upstream reply is not a Responses response object',
    });
  }
  const parts: Part[] = [];
  let hasFunctionCalls = false;
  let webSearchCalls = 0;
  body.output.forEach((item, index) => {
    if (!isJsonObject(item)) {
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
          id: asString(item.call_id) ?? asString(item.id) ?? `call_${index}`,
          name: asString(item.name) ?? '',
          arguments: asString(item.arguments) ?? '',
        });
        break;
      default:
        if (item.type === 'web_search_call') webSearchCalls += 1;
        parts.push(rawItem(item));
    }
  });
  const usage = convertOpenAIResponsesUsage(body.usage) ?? { ...emptyUsage(), raw: body.usage };
  usage.webSearchCalls = webSearchCalls;
  const kept = withoutKeys(body, REPLY_FIELDS);
  return {
    id: asString(body.id) ?? '',
    model: asString(body.model) ?? '',
    created: asFiniteNumber(body.created_at) ?? 0,
    parts,
    finishReason: mapOpenAIResponsesFinishReason({
      status: asString(body.status),
      incompleteReason: asString(membersOf(body.incomplete_details).reason),
      hasFunctionCalls,
    }),
    usage,
    extensions: kept ? { [PROTOCOL]: kept } : {},
  };
}

/** Message content, leniently: a malformed entry is dropped with the loss recorded, not fatal. */
function decodeMessageItem(item: Record<string, unknown>, path: string, losses: LossLog): Part[] {
  const id = asString(item.id);
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
