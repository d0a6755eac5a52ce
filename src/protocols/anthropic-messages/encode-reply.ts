import type { Part } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { toAnthropicMessageId, toAnthropicToolUseId } from './anthropic-ids.js';
import { ANTHROPIC_MESSAGES, ownExtensions } from './anthropic-extensions.js';
import { encodeAnthropicUsage } from './encode-anthropic-usage.js';
import { toolInput } from './encode-part.js';
import type { LossContext } from './loss-context.js';
import { toAnthropicStopReason } from './map-anthropic-finish-reason.js';
import { asString, isJsonObject, type JsonObject } from '../wire-json.js';

/**
 * Canonical reply -> `Message` (https://docs.anthropic.com/en/api/messages#response), for an
 * Anthropic client served by another vendor's model. Thinking without a signature is returned
 * with an empty one (client-api 4.7, rule 1 of `/v1/messages`).
 */
export function encodeReply(reply: CanonicalReply, losses: LossLog): Record<string, unknown> {
  const content: JsonObject[] = [];
  reply.parts.forEach((part, index) => {
    const block = encodeReplyPart(part, { path: `parts[${index}]`, losses });
    if (block) content.push(block);
  });
  const own = ownExtensions(reply.extensions);
  const stopReason = toAnthropicStopReason(reply.finishReason, losses);
  const message: Record<string, unknown> = {
    id: toAnthropicMessageId(reply.id),
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopReason === 'stop_sequence' ? (asString(own?.stop_sequence) ?? null) : null,
    usage: encodeAnthropicUsage(reply.usage, { inputTokens: 0 }),
  };
  // Nullable fields of the SDK's `Message`, present in every real reply.
  message.stop_details = own?.stop_details ?? null;
  message.container = own?.container ?? null;
  return message;
}

function encodeReplyPart(part: Part, { path, losses }: LossContext): JsonObject | undefined {
  switch (part.type) {
    case 'text': {
      const citations = ownExtensions(part.extensions)?.citations;
      return { type: 'text', text: part.text, citations: Array.isArray(citations) ? citations : null };
    }
    case 'reasoning':
      if (part.redactedData !== undefined && part.text.length === 0)
        return { type: 'redacted_thinking', data: part.redactedData };
      if (part.redactedData !== undefined)
        losses.dropped(
          `${path}.redactedData`,
          'Anthropic thinking blocks carry either text or redacted data',
        );
      if (!part.signature)
        losses.dropped(`${path}.signature`, 'thinking from this model has no Anthropic signature');
      return { type: 'thinking', thinking: part.text, signature: part.signature ?? '' };
    case 'tool-call': {
      const id = toAnthropicToolUseId(part.id);
      if (id !== part.id) losses.coerced(`${path}.id`, `tool call id ${part.id} sent as ${id}`);
      if (part.signature !== undefined)
        losses.dropped(`${path}.signature`, 'Anthropic tool calls carry no signature');
      const input = toolInput(part.arguments, { path: `${path}.arguments`, losses });
      return { type: 'tool_use', id, name: part.name, input, caller: { type: 'direct' } };
    }
    case 'raw':
      if (part.protocol === ANTHROPIC_MESSAGES && isJsonObject(part.value)) return part.value;
      losses.dropped(path, `no Anthropic form for a raw ${part.protocol} block`);
      return undefined;
    case 'file':
    case 'tool-result':
      losses.dropped(path, `no Anthropic reply block for ${part.type}`);
      return undefined;
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}
