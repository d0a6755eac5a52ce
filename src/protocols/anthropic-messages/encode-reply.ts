import type { IssuedToken, Part, ReasoningPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import type { CanonicalReply } from '../../ir/reply.js';
import { writeIssuedToken } from '../issued-token.js';
import { toAnthropicMessageId, toAnthropicToolUseId } from './anthropic-ids.js';
import { ANTHROPIC_MESSAGES, ownExtensions } from './anthropic-extensions.js';
import { encodeAnthropicUsage } from './encode-anthropic-usage.js';
import { toolInput } from './encode-part.js';
import type { LossContext } from './loss-context.js';
import { toAnthropicStopReason } from './map-anthropic-finish-reason.js';
import { asString, isJsonObject } from '../wire-json.js';
import {
  keptBlockOf,
  type AnthropicAssistantBlock,
  type AnthropicMessage,
  type AnthropicRedactedThinkingBlock,
  type AnthropicThinkingBlock,
  type AnthropicToolUseBlock,
} from './wire-types.js';

/**
 * Canonical reply -> `Message` (https://docs.anthropic.com/en/api/messages#response), for an
 * Anthropic client served by another vendor's model. Thinking without a signature is returned
 * with an empty one (client-api 4.7, rule 1 of `/v1/messages`).
 */
export function encodeReply(reply: CanonicalReply, losses: LossLog): AnthropicMessage {
  const content: AnthropicAssistantBlock[] = [];
  reply.parts.forEach((part, index) => {
    content.push(...encodeReplyPart(part, { path: `parts[${index}]`, losses }));
  });
  const own = ownExtensions(reply.extensions);
  const stopReason = toAnthropicStopReason(reply.finishReason, losses);
  return {
    id: toAnthropicMessageId(reply.id),
    type: 'message',
    role: 'assistant',
    model: reply.model,
    content,
    stop_reason: stopReason,
    stop_sequence: stopReason === 'stop_sequence' ? (asString(own?.stop_sequence) ?? null) : null,
    usage: encodeAnthropicUsage(reply.usage, { inputTokens: 0 }),
    // Nullable fields of the SDK's `Message`, present in every real reply.
    stop_details: own?.stop_details ?? null,
    container: own?.container ?? null,
  };
}

function encodeReplyPart(part: Part, { path, losses }: LossContext): AnthropicAssistantBlock[] {
  switch (part.type) {
    case 'text': {
      const citations = ownExtensions(part.extensions)?.citations;
      return [{ type: 'text', text: part.text, citations: Array.isArray(citations) ? citations : null }];
    }
    case 'reasoning':
      return [encodeReplyReasoning(part, { path, losses })];
    case 'tool-call': {
      const id = toAnthropicToolUseId(part.id);
      if (id !== part.id) losses.coerced(`${path}.id`, `tool call id ${part.id} sent as ${id}`);
      const input = toolInput(part.arguments, { path: `${path}.arguments`, losses });
      const toolUse: AnthropicToolUseBlock = {
        type: 'tool_use',
        id,
        name: part.name,
        input,
        caller: { type: 'direct' },
      };
      // A Gemini call's signature goes right after its call, as in a stream, where it comes at the call's end.
      return part.signature ? [toolUse, signatureBlock(part.signature)] : [toolUse];
    }
    case 'raw':
      if (part.protocol === ANTHROPIC_MESSAGES && isJsonObject(part.value)) return [keptBlockOf(part.value)];
      losses.dropped(path, `no Anthropic form for a raw ${part.protocol} block`);
      return [];
    case 'file':
    case 'tool-result':
      // A generated image (Gemini image models) has no block in a Messages reply, which holds
      // text, thinking and tool use (https://docs.anthropic.com/en/api/messages#response-content).
      losses.dropped(path, `no Anthropic reply block for ${part.type}`);
      return [];
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

/**
 * Reasoning -> `thinking` (its signature written for the client to echo: another vendor's behind
 * its marker) or `redacted_thinking` for data alone. Reasoning that has both text and another
 * vendor's encrypted data keeps the data in the signature, marked as redacted data.
 */
function encodeReplyReasoning(
  part: ReasoningPart,
  { path, losses }: LossContext,
): AnthropicThinkingBlock | AnthropicRedactedThinkingBlock {
  if (part.redactedData !== undefined && part.text.length === 0 && !part.signature)
    return {
      type: 'redacted_thinking',
      data: writeIssuedToken(part.redactedData, { ownVendor: 'anthropic', role: 'redacted' }),
    };
  if (part.signature) {
    if (part.redactedData !== undefined)
      losses.dropped(
        `${path}.redactedData`,
        'Anthropic thinking blocks carry either a signature or redacted data',
      );
    return signatureBlock(part.signature, part.text);
  }
  if (part.redactedData !== undefined)
    return {
      type: 'thinking',
      thinking: part.text,
      signature: writeIssuedToken(part.redactedData, { ownVendor: 'anthropic', role: 'redacted' }),
    };
  losses.dropped(`${path}.signature`, 'thinking from this model has no Anthropic signature');
  return { type: 'thinking', thinking: part.text, signature: '' };
}

function signatureBlock(signature: IssuedToken, text = ''): AnthropicThinkingBlock {
  return {
    type: 'thinking',
    thinking: text,
    signature: writeIssuedToken(signature, { ownVendor: 'anthropic' }),
  };
}
