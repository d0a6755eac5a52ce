import type { Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { emptyUsage } from '../../ir/usage.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { usageFromWire } from './convert-openai-responses-usage.js';
import { decodeContentPart } from './decode-content-part.js';
import { asArray, membersOf, isJsonObject, withoutKeys, asString } from '../wire-json.js';
import { openAIResponsesItemSchema, openAIResponsesResponseSchema } from './wire-schemas.js';
import { mapOpenAIResponsesFinishReason } from './map-openai-responses-finish-reason.js';
import { decodeReasoningItem, isToolCallSignature } from './reasoning-item.js';
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
  const parsed = openAIResponsesResponseSchema.safeParse(body);
  if (!parsed.success || !parsed.data.output) {
    throw new GatewayError('upstream_unreachable', {
      detail: 'the upstream reply is not a Responses response object',
    });
  }
  const response = parsed.data;
  const parts: Part[] = [];
  let hasFunctionCalls = false;
  let hasRefusal = false;
  let webSearchCalls = 0;
  parsed.data.output.forEach((item, index, output) => {
    if (!isJsonObject(item)) {
      losses.dropped(`output[${index}]`, 'an output item that is not an object');
      return;
    }
    switch (item.type) {
      case 'message':
        hasRefusal ||= asArray(item.content).some((content) => membersOf(content).type === 'refusal');
        parts.push(...decodeMessageItem(item, `output[${index}]`, losses));
        break;
      case 'reasoning': {
        const part = decodeReasoningItem(item);
        // A Gemini signature item right after a function call is that call's signature.
        const call = parts.at(-1);
        const previous = index > 0 ? membersOf(output[index - 1]) : {};
        if (previous.type === 'function_call' && call?.type === 'tool-call' && isToolCallSignature(part))
          call.signature = part.signature;
        else parts.push(part);
        break;
      }
      case 'function_call': {
        hasFunctionCalls = true;
        const call = openAIResponsesItemSchema.parse(item);
        parts.push({
          type: 'tool-call',
          id: call.call_id ?? call.id ?? `call_${index}`,
          name: call.name ?? '',
          arguments: call.arguments ?? '',
        });
        break;
      }
      default:
        if (item.type === 'web_search_call') webSearchCalls += 1;
        parts.push(rawItem(item));
    }
  });
  const rawUsage = membersOf(body).usage;
  const usage = usageFromWire(response.usage, rawUsage) ?? { ...emptyUsage(), raw: rawUsage };
  usage.webSearchCalls = webSearchCalls;
  // The request echo (tools, reasoning, text...) is kept from the body as the upstream sent it.
  const kept = isJsonObject(body) ? withoutKeys(body, REPLY_FIELDS) : undefined;
  return {
    id: response.id ?? '',
    model: response.model ?? '',
    created: response.created_at ?? 0,
    parts,
    finishReason: mapOpenAIResponsesFinishReason({
      status: response.status,
      incompleteReason: response.incomplete_details?.reason,
      hasFunctionCalls,
      hasRefusal,
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
