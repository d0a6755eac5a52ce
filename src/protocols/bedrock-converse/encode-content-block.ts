import type {
  CacheControl,
  Part,
  ReasoningPart,
  TextPart,
  ToolCallPart,
  ToolResultPart,
} from '../../ir/content.js';
import { isJsonObject, parseJson, type JsonObject } from '../wire-json.js';
import { BEDROCK_CONVERSE, ownExtensions } from './bedrock-converse-extensions.js';
import { toConverseToolUseId } from './bedrock-converse-ids.js';
import { encodeFileBlock, type FileContext } from './encode-file-block.js';
import type { LossContext } from './loss-context.js';
import {
  keptBlockOf,
  type ConverseCachePoint,
  type ConverseContentBlock,
  type ConverseToolResultContent,
} from './wire-types.js';

export interface PartContext extends FileContext {
  role: 'user' | 'assistant';
  /** Model family rules: Claude refuses reasoning it did not sign. */
  unsignedReasoning: 'send' | 'drop';
}

/**
 * One canonical part -> Converse content blocks
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html), with a
 * `cachePoint` block after a part marked for caching. User turns hold text, files and tool
 * results; assistant turns text, reasoning and tool use; a part of the wrong side is dropped.
 */
export function encodePart(part: Part, context: PartContext): ConverseContentBlock[] {
  const { path, losses, role } = context;
  switch (part.type) {
    case 'text':
      return withCachePoint(encodeTextPart(part, context), part.cacheControl);
    case 'file':
      if (role === 'user') return withCachePoint(encodeFileBlock(part, context), part.cacheControl);
      break;
    case 'tool-result':
      if (role === 'user') return withCachePoint(encodeToolResult(part, context), part.cacheControl);
      break;
    case 'reasoning':
      if (role === 'assistant') return encodeReasoning(part, context);
      break;
    case 'tool-call':
      if (role === 'assistant') return [encodeToolCall(part, context)];
      break;
    case 'raw':
      if (part.protocol === BEDROCK_CONVERSE && isJsonObject(part.value)) return [keptBlockOf(part.value)];
      losses.dropped(path, `no Converse form for a raw ${part.protocol} block`);
      return [];
    default: {
      const unreachable: never = part;
      return unreachable;
    }
  }
  losses.dropped(path, `no Converse block for ${part.type} in a ${role} turn`);
  return [];
}

/**
 * Text, or generated text with its citations when they came from this protocol. Converse refuses
 * blank text in a request ("The text field in the ContentBlock object ... is blank"), so blank text
 * is left out.
 */
export function encodeTextPart(
  part: TextPart,
  { path, losses }: LossContext,
): ConverseContentBlock | undefined {
  if (part.text.trim().length === 0) {
    losses.dropped(path, 'Converse refuses blank text blocks');
    return undefined;
  }
  return textBlockOf(part);
}

/** `text`, or `citationsContent` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CitationsContentBlock.html). */
export function textBlockOf(part: TextPart): ConverseContentBlock {
  const citations = ownExtensions(part.extensions)?.citations;
  if (Array.isArray(citations))
    return keptBlockOf({ citationsContent: { content: [{ text: part.text }], citations } });
  return { text: part.text };
}

export function cachePointOf(cacheControl: CacheControl | undefined): ConverseCachePoint | undefined {
  if (!cacheControl) return undefined;
  return { cachePoint: { type: 'default', ...(cacheControl.ttl ? { ttl: cacheControl.ttl } : {}) } };
}

function withCachePoint(
  block: ConverseContentBlock | undefined,
  cacheControl: CacheControl | undefined,
): ConverseContentBlock[] {
  if (!block) return [];
  const cachePoint = cachePointOf(cacheControl);
  return cachePoint ? [block, cachePoint] : [block];
}

/**
 * Reasoning goes to Bedrock as it came: signed (`reasoningText` with its signature) or encrypted
 * (`redactedContent`) by Anthropic, the only issuer Bedrock reads. Other vendors' tokens are
 * dropped; unsigned reasoning (DeepSeek, gpt-oss history) goes as text, except to Claude, which
 * refuses reasoning it did not sign.
 */
function encodeReasoning(part: ReasoningPart, context: PartContext): ConverseContentBlock[] {
  const { path, losses } = context;
  if (part.signature?.issuer === 'anthropic') {
    if (part.redactedData !== undefined)
      losses.dropped(
        `${path}.redactedData`,
        'Converse reasoning carries either a signature or redacted content',
      );
    return [{ reasoningContent: { reasoningText: { text: part.text, signature: part.signature.value } } }];
  }
  if (part.redactedData?.issuer === 'anthropic' && part.text.length === 0)
    return [{ reasoningContent: { redactedContent: part.redactedData.value } }];
  const token = part.signature ?? part.redactedData;
  if (token) {
    losses.dropped(path, `reasoning issued by ${token.issuer} cannot be sent to Bedrock`);
    return [];
  }
  if (part.text.length === 0 || context.unsignedReasoning === 'drop') {
    losses.dropped(
      path,
      part.text.length === 0
        ? 'empty reasoning says nothing'
        : 'Claude refuses reasoning without its signature',
    );
    return [];
  }
  return [{ reasoningContent: { reasoningText: { text: part.text } } }];
}

function encodeToolCall(part: ToolCallPart, { path, losses }: LossContext): ConverseContentBlock {
  const id = toConverseToolUseId(part.id);
  if (id !== part.id) losses.coerced(`${path}.id`, `tool call id ${part.id} sent as ${id}`);
  if (part.signature !== undefined)
    losses.dropped(
      `${path}.signature`,
      `a tool call signature of ${part.signature.issuer} cannot be sent to Bedrock`,
    );
  return {
    toolUse: {
      toolUseId: id,
      name: part.name,
      input: toolInput(part.arguments, { path: `${path}.arguments`, losses }),
    },
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

/**
 * `ToolResultBlock`: text (JSON again when it came as JSON from this protocol) and files; the error
 * flag is the `status`.
 */
function encodeToolResult(part: ToolResultPart, context: PartContext): ConverseContentBlock {
  const toolUseId = toConverseToolUseId(part.toolCallId);
  const content: ConverseToolResultContent[] = [];
  part.content.forEach((item, index) => {
    const path = `${context.path}.content[${index}]`;
    if (item.type === 'file') {
      const file = encodeFileBlock(item, { ...context, path });
      if (file) content.push(file);
      return;
    }
    if (ownExtensions(item.extensions)?.json === true) {
      const parsed = parseJson(item.text);
      if (parsed.ok) {
        content.push({ json: parsed.value });
        return;
      }
    }
    content.push({ text: item.text });
  });
  for (const item of part.content)
    if (item.cacheControl)
      context.losses.dropped(`${context.path}.content`, 'Converse has no cache point inside a tool result');
  // Converse refuses a failed tool result without content.
  if (content.length === 0 && part.isError === true) content.push({ text: '' });
  return {
    toolResult: {
      toolUseId,
      content,
      ...(part.isError === undefined ? {} : { status: part.isError ? 'error' : 'success' }),
    },
  };
}
