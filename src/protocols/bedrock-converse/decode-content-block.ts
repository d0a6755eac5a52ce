import type {
  CacheControl,
  FilePart,
  Part,
  ReasoningPart,
  TextPart,
  ToolResultPart,
} from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { readIssuedToken } from '../issued-token.js';
import { asArray, asJsonObject, asString, isJsonObject, type JsonObject } from '../wire-json.js';
import { BEDROCK_CONVERSE } from './bedrock-converse-extensions.js';
import { decodeConverseFile } from './decode-file-block.js';

export interface BlockContext {
  /** Where the blocks sit, e.g. `messages[2].content`. */
  path: string;
  losses: LossLog;
  /** Requests (strict: a known block missing what it requires is refused) or replies (lenient: kept raw). */
  strict: boolean;
}

/**
 * Converse content blocks -> canonical parts
 * (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ContentBlock.html). Each
 * block is a union object with one member naming its kind. A `cachePoint` marks the content before
 * it for caching, which the canonical form says on that content itself (`cacheControl`); blocks no
 * canonical part covers (guard content, search results, server tool blocks...) stay `raw`.
 */
export function decodeContentBlocks(blocks: unknown, context: BlockContext): Part[] {
  if (!Array.isArray(blocks)) {
    if (context.strict) throw new InvalidRequestError(context.path, 'must be an array of content blocks');
    return [];
  }
  const parts: Part[] = [];
  blocks.forEach((block, index) => {
    const path = `${context.path}[${index}]`;
    if (isJsonObject(block) && block.cachePoint !== undefined) {
      const previous = parts.at(-1);
      if (previous?.type === 'text' || previous?.type === 'file' || previous?.type === 'tool-result')
        previous.cacheControl = decodeCachePoint(block.cachePoint);
      else
        context.losses.dropped(
          path,
          previous
            ? `a cache point after ${previous.type} has no canonical form`
            : 'a cache point with nothing before it',
        );
      return;
    }
    parts.push(decodeContentBlock(block, { ...context, path }));
  });
  return parts;
}

function decodeContentBlock(block: unknown, context: BlockContext): Part {
  if (!isJsonObject(block))
    return invalid({ block, field: context.path, problem: 'must be an object' }, context);
  if (block.text !== undefined)
    return typeof block.text === 'string'
      ? { type: 'text', text: block.text }
      : invalid({ block, field: `${context.path}.text`, problem: 'must be a string' }, context);
  if (block.image !== undefined || block.document !== undefined || block.video !== undefined)
    return decodeConverseFile(block, context) ?? invalidFile(block, context);
  if (block.toolUse !== undefined) return decodeToolUse(block, context);
  if (block.toolResult !== undefined) return decodeToolResult(block, context);
  if (block.reasoningContent !== undefined) return decodeReasoning(block, context);
  if (block.citationsContent !== undefined) return decodeCitations(block, context);
  return { type: 'raw', protocol: BEDROCK_CONVERSE, value: block };
}

/** `ToolUseBlock`; a server tool's use (`type: server_tool_use`) has no canonical form and stays raw. */
function decodeToolUse(block: JsonObject, context: BlockContext): Part {
  const toolUse = asJsonObject(block.toolUse);
  if (toolUse?.type !== undefined) return { type: 'raw', protocol: BEDROCK_CONVERSE, value: block };
  const id = asString(toolUse?.toolUseId);
  const name = asString(toolUse?.name);
  if (id === undefined)
    return invalid(
      { block, field: `${context.path}.toolUse.toolUseId`, problem: 'must be a string' },
      context,
    );
  if (name === undefined)
    return invalid({ block, field: `${context.path}.toolUse.name`, problem: 'must be a string' }, context);
  return { type: 'tool-call', id, name, arguments: JSON.stringify(toolUse?.input ?? {}) };
}

/** `ToolResultBlock` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ToolResultBlock.html) */
function decodeToolResult(block: JsonObject, context: BlockContext): Part {
  const result = asJsonObject(block.toolResult);
  if (result?.type !== undefined) return { type: 'raw', protocol: BEDROCK_CONVERSE, value: block };
  const toolCallId = asString(result?.toolUseId);
  if (toolCallId === undefined)
    return invalid(
      { block, field: `${context.path}.toolResult.toolUseId`, problem: 'must be a string' },
      context,
    );
  const part: ToolResultPart = { type: 'tool-result', toolCallId, content: [] };
  asArray(result?.content).forEach((item, index) => {
    const path = `${context.path}.toolResult.content[${index}]`;
    const content = decodeToolResultContent(item, { ...context, path });
    if (content) part.content.push(content);
  });
  if (result?.status === 'error') part.isError = true;
  else if (result?.status === 'success') part.isError = false;
  return part;
}

/**
 * `ToolResultContentBlock`: text, JSON, or a file. JSON is written as its text for other protocols,
 * marked so that this protocol writes it back as `json`.
 */
function decodeToolResultContent(item: unknown, context: BlockContext): TextPart | FilePart | undefined {
  const content = asJsonObject(item);
  if (typeof content?.text === 'string') return { type: 'text', text: content.text };
  if (content && Object.hasOwn(content, 'json'))
    return {
      type: 'text',
      text: JSON.stringify(content.json ?? null),
      extensions: { [BEDROCK_CONVERSE]: { json: true } },
    };
  if (content) {
    const file = decodeConverseFile(content, context);
    if (file) return file;
  }
  context.losses.dropped(context.path, 'this tool result content has no canonical form');
  return undefined;
}

/**
 * `ReasoningContentBlock`. A signature or encrypted reasoning comes from the model's provider:
 * on Bedrock only Claude signs its reasoning, so an unmarked token is Anthropic's (see
 * `readIssuedToken`), the same token the Anthropic protocol carries.
 */
function decodeReasoning(block: JsonObject, context: BlockContext): Part {
  const reasoning = asJsonObject(block.reasoningContent);
  const redacted = asString(reasoning?.redactedContent);
  if (redacted !== undefined)
    return { type: 'reasoning', text: '', redactedData: readIssuedToken(redacted, 'anthropic').token };
  const reasoningText = asJsonObject(reasoning?.reasoningText);
  // A reasoning kind added later stays raw; reasoning text without its text is malformed.
  if (!reasoningText) return { type: 'raw', protocol: BEDROCK_CONVERSE, value: block };
  const text = asString(reasoningText.text);
  if (text === undefined)
    return invalid(
      { block, field: `${context.path}.reasoningContent.reasoningText.text`, problem: 'must be a string' },
      context,
    );
  const signature = asString(reasoningText.signature);
  const part: ReasoningPart = { type: 'reasoning', text };
  if (!signature) return part;
  const { token, role } = readIssuedToken(signature, 'anthropic');
  if (role === 'redacted') part.redactedData = token;
  else part.signature = token;
  return part;
}

/** `CitationsContentBlock`: generated text with its citations, kept for this protocol. */
function decodeCitations(block: JsonObject, context: BlockContext): Part {
  const citations = asJsonObject(block.citationsContent);
  const texts = asArray(citations?.content).map((item) => asString(asJsonObject(item)?.text));
  if (!texts.every((text): text is string => text !== undefined))
    return invalid(
      { block, field: `${context.path}.citationsContent.content`, problem: 'must be text' },
      context,
    );
  return {
    type: 'text',
    text: texts.join(''),
    extensions: { [BEDROCK_CONVERSE]: { citations: citations?.citations ?? [] } },
  };
}

/** `CachePointBlock` (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_CachePointBlock.html) */
export function decodeCachePoint(value: unknown): CacheControl {
  const ttl = asJsonObject(value)?.ttl;
  return ttl === '5m' || ttl === '1h' ? { type: 'ephemeral', ttl } : { type: 'ephemeral' };
}

function invalidFile(block: JsonObject, context: BlockContext): Part {
  const kind = ['image', 'document', 'video'].find((key) => block[key] !== undefined) ?? 'file';
  return invalid(
    { block, field: `${context.path}.${kind}`, problem: 'has no format or source Converse accepts' },
    context,
  );
}

/** A known block without what it requires: refused in a request, kept raw in a reply. */
function invalid(found: { block: unknown; field: string; problem: string }, context: BlockContext): Part {
  if (context.strict) throw new InvalidRequestError(found.field, found.problem);
  return { type: 'raw', protocol: BEDROCK_CONVERSE, value: found.block };
}
