import type { Part, ReasoningPart, TextPart, ToolCallPart, ToolResultPart } from '../../ir/content.js';
import { toAnthropicToolUseId } from './anthropic-ids.js';
import { ANTHROPIC_MESSAGES, ownExtensions } from './anthropic-extensions.js';
import { encodeCacheControl } from './encode-cache-control.js';
import { encodeFilePart } from './encode-file-part.js';
import type { LossContext } from './loss-context.js';
import {
  keptBlockOf,
  type AnthropicAssistantBlock,
  type AnthropicFileBlock,
  type AnthropicKeptBlock,
  type AnthropicRedactedThinkingBlock,
  type AnthropicTextBlock,
  type AnthropicThinkingBlock,
  type AnthropicToolResultBlock,
  type AnthropicToolUseBlock,
  type AnthropicUserBlock,
} from './wire-types.js';
import { isJsonObject, parseJson, type JsonObject } from '../wire-json.js';

export type PartContext = LossContext;

/**
 * One canonical part of a user turn -> a content block
 * (https://docs.anthropic.com/en/api/messages#body-messages-content). Assistant-only parts
 * (reasoning, tool calls) cannot be said by a user and are dropped with a loss.
 */
export function encodeUserPart(part: Part, context: PartContext): AnthropicUserBlock | undefined {
  switch (part.type) {
    case 'text':
      return encodeTextPart(part, context);
    case 'file':
      return encodeFilePart(part, context);
    case 'tool-result':
      return encodeToolResultPart(part, context);
    case 'raw':
      return encodeRawPart(part, context);
    case 'reasoning':
    case 'tool-call':
      context.losses.dropped(context.path, `no Anthropic block for ${part.type} in a user turn`);
      return undefined;
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

/** One canonical part of an assistant turn -> a content block. */
export function encodeAssistantPart(part: Part, context: PartContext): AnthropicAssistantBlock | undefined {
  switch (part.type) {
    case 'text':
      return encodeTextPart(part, context);
    case 'reasoning':
      return encodeReasoningPart(part, context);
    case 'tool-call':
      return encodeToolCallPart(part, context);
    case 'raw':
      return encodeRawPart(part, context);
    case 'file':
    case 'tool-result':
      context.losses.dropped(context.path, `no Anthropic block for ${part.type} in an assistant turn`);
      return undefined;
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
}

/**
 * Anthropic rejects empty text blocks ("text content blocks must be non-empty") and a message whose
 * text is whitespace alone ("text content blocks must contain non-whitespace text"); a block of
 * whitespace says nothing, so it is left out wherever it stands.
 */
export function encodeTextPart(part: TextPart, context: PartContext): AnthropicTextBlock | undefined {
  if (part.text.length === 0) {
    context.losses.dropped(context.path, 'Anthropic rejects empty text blocks');
    return undefined;
  }
  if (part.text.trim().length === 0) {
    context.losses.dropped(context.path, 'Anthropic rejects text blocks of whitespace only');
    return undefined;
  }
  const block: AnthropicTextBlock = { type: 'text', text: part.text };
  const cacheControl = encodeCacheControl(part.cacheControl);
  if (cacheControl) block.cache_control = cacheControl;
  const citations = ownExtensions(part.extensions)?.citations;
  if (Array.isArray(citations)) block.citations = citations;
  return block;
}

/**
 * Thinking goes back to Anthropic only as it came: signed by Anthropic (`thinking`) or redacted
 * by Anthropic (https://docs.anthropic.com/en/docs/build-with-claude/extended-thinking#preserving-thinking-blocks).
 * The API refuses reasoning it did not sign, so unsigned reasoning and other vendors' tokens are
 * left out.
 */
function encodeReasoningPart(
  part: ReasoningPart,
  context: PartContext,
): AnthropicThinkingBlock | AnthropicRedactedThinkingBlock | undefined {
  const { path, losses } = context;
  if (part.signature?.issuer === 'anthropic') {
    if (part.redactedData !== undefined)
      losses.dropped(
        `${path}.redactedData`,
        'Anthropic thinking blocks carry either a signature or redacted data',
      );
    return { type: 'thinking', thinking: part.text, signature: part.signature.value };
  }
  if (part.redactedData?.issuer === 'anthropic' && part.text.length === 0)
    return { type: 'redacted_thinking', data: part.redactedData.value };
  const token = part.signature ?? part.redactedData;
  losses.dropped(
    path,
    token
      ? `reasoning issued by ${token.issuer} cannot be sent to Anthropic`
      : 'reasoning without a signature cannot be sent back to Anthropic',
  );
  return undefined;
}

function encodeToolCallPart(part: ToolCallPart, context: PartContext): AnthropicToolUseBlock {
  const id = toAnthropicToolUseId(part.id);
  if (id !== part.id) context.losses.coerced(`${context.path}.id`, `tool call id ${part.id} sent as ${id}`);
  if (part.signature !== undefined)
    context.losses.dropped(
      `${context.path}.signature`,
      `a tool call signature of ${part.signature.issuer} cannot be sent to Anthropic`,
    );
  return {
    type: 'tool_use',
    id,
    name: part.name,
    input: toolInput(part.arguments, { ...context, path: `${context.path}.arguments` }),
  };
}

/** Tool arguments as the object `input` must be; empty arguments are an empty object. */
export function toolInput(argumentsText: string, { path, losses }: LossContext): JsonObject {
  if (argumentsText.trim().length === 0) return {};
  const parsed = parseJson(argumentsText);
  if (parsed.ok && isJsonObject(parsed.value)) return parsed.value;
  losses.coerced(path, 'tool arguments are not a JSON object: sent as {}');
  return {};
}

function encodeToolResultPart(part: ToolResultPart, context: PartContext): AnthropicToolResultBlock {
  const id = toAnthropicToolUseId(part.toolCallId);
  const block: AnthropicToolResultBlock = { type: 'tool_result', tool_use_id: id };
  const [first] = part.content;
  if (part.content.length === 1 && first?.type === 'text' && isPlainText(first)) {
    block.content = first.text;
    return withToolResultFlags(block, part);
  }
  const content: (AnthropicTextBlock | AnthropicFileBlock)[] = [];
  part.content.forEach((item, index) => {
    const path = `${context.path}.content[${index}]`;
    const encoded =
      item.type === 'text'
        ? encodeTextPart(item, { ...context, path })
        : encodeFilePart(item, { ...context, path });
    if (encoded) content.push(encoded);
  });
  if (content.length > 0) block.content = content;
  return withToolResultFlags(block, part);
}

function withToolResultFlags(
  block: AnthropicToolResultBlock,
  part: ToolResultPart,
): AnthropicToolResultBlock {
  if (part.isError !== undefined) block.is_error = part.isError;
  const cacheControl = encodeCacheControl(part.cacheControl);
  if (cacheControl) block.cache_control = cacheControl;
  return block;
}

/** Text that a plain string says completely: no cache marker, no citations. */
export function isPlainText(part: TextPart): boolean {
  return part.cacheControl === undefined && ownExtensions(part.extensions)?.citations === undefined;
}

/** Raw blocks go back to their own protocol only. */
function encodeRawPart(
  part: Extract<Part, { type: 'raw' }>,
  context: PartContext,
): AnthropicKeptBlock | undefined {
  if (part.protocol === ANTHROPIC_MESSAGES && isJsonObject(part.value)) return keptBlockOf(part.value);
  context.losses.dropped(context.path, `no Anthropic form for a raw ${part.protocol} block`);
  return undefined;
}
