import type {
  CacheControl,
  FilePart,
  Part,
  ReasoningPart,
  TextPart,
  ToolResultPart,
} from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { readIssuedToken } from '../issued-token.js';
import { ANTHROPIC_MESSAGES } from './anthropic-extensions.js';
import { asString, asJsonObject, isJsonObject, type JsonObject } from '../wire-json.js';

export interface BlockContext {
  /** Where the block sits, e.g. `messages[2].content[0]`. */
  path: string;
  losses: LossLog;
  /** Client requests (strict: a known block missing a required field is rejected) or upstream replies (lenient: kept raw). */
  strict: boolean;
}

/**
 * One content block of a request or reply -> canonical part
 * (https://docs.anthropic.com/en/api/messages#body-messages-content). Server tool blocks and
 * every unknown block become `raw` parts that only this protocol sends back.
 */
export function decodeContentBlock(block: unknown, context: BlockContext): Part {
  if (!isJsonObject(block)) return invalid({ block, field: context.path }, context);
  switch (block.type) {
    case 'text':
      return decodeTextBlock(block, context) ?? invalid({ block, field: `${context.path}.text` }, context);
    case 'image':
      return decodeImageBlock(block, context);
    case 'document':
      return decodeDocumentBlock(block, context);
    case 'thinking': {
      const text = asString(block.thinking);
      if (text === undefined) return invalid({ block, field: `${context.path}.thinking` }, context);
      dropCacheControl(block, context);
      return decodeThinkingSignature(text, asString(block.signature));
    }
    case 'redacted_thinking': {
      const data = asString(block.data);
      if (data === undefined) return invalid({ block, field: `${context.path}.data` }, context);
      dropCacheControl(block, context);
      return { type: 'reasoning', text: '', redactedData: readIssuedToken(data, 'anthropic').token };
    }
    case 'tool_use':
      return decodeToolUseBlock(block, context);
    case 'tool_result':
      return decodeToolResultBlock(block, context);
    default:
      return { type: 'raw', protocol: ANTHROPIC_MESSAGES, value: block };
  }
}

/**
 * A thinking block's signature is Anthropic's, or a token of another vendor the gateway wrote
 * there behind its issuer's marker (`gemini:...`, `openai-redacted:...` for encrypted reasoning).
 * An empty signature is no signature: what the gateway returns for unsigned reasoning.
 */
function decodeThinkingSignature(text: string, signature: string | undefined): ReasoningPart {
  if (!signature) return { type: 'reasoning', text };
  const { token, role } = readIssuedToken(signature, 'anthropic');
  return role === 'redacted'
    ? { type: 'reasoning', text, redactedData: token }
    : { type: 'reasoning', text, signature: token };
}

export function decodeTextBlock(block: JsonObject, context: BlockContext): TextPart | undefined {
  const text = asString(block.text);
  if (text === undefined) return undefined;
  const part: TextPart = { type: 'text', text };
  const cacheControl = decodeCacheControl(block.cache_control);
  if (cacheControl) part.cacheControl = cacheControl;
  if (Array.isArray(block.citations))
    part.extensions = { [ANTHROPIC_MESSAGES]: { citations: block.citations } };
  return part;
}

export function decodeCacheControl(value: unknown): CacheControl | undefined {
  const control = asJsonObject(value);
  if (control?.type !== 'ephemeral') return undefined;
  return control.ttl === '5m' || control.ttl === '1h'
    ? { type: 'ephemeral', ttl: control.ttl }
    : { type: 'ephemeral' };
}

/** https://docs.anthropic.com/en/api/messages#body-messages-content (image block, `source`) */
function decodeImageBlock(block: JsonObject, context: BlockContext): Part {
  const source = asJsonObject(block.source);
  let part: FilePart | undefined;
  switch (source?.type) {
    case 'base64':
      if (typeof source.data === 'string')
        part = file(asString(source.media_type) ?? 'image/*', { kind: 'base64', data: source.data });
      break;
    case 'url':
      if (typeof source.url === 'string') part = file('image/*', { kind: 'url', url: source.url });
      break;
    case 'file':
      if (typeof source.file_id === 'string')
        part = file('image/*', { kind: 'file-id', fileId: source.file_id });
      break;
  }
  if (!part) return invalid({ block, field: `${context.path}.source` }, context);
  withCacheControl(part, block);
  if (block.transformations !== undefined && block.transformations !== null)
    context.losses.dropped(`${context.path}.transformations`, 'image transformations have no canonical form');
  return part;
}

/** https://docs.anthropic.com/en/docs/build-with-claude/pdf-support (document block) */
function decodeDocumentBlock(block: JsonObject, context: BlockContext): Part {
  const source = asJsonObject(block.source);
  let part: FilePart | undefined;
  switch (source?.type) {
    case 'base64':
      if (typeof source.data === 'string')
        part = file(asString(source.media_type) ?? 'application/pdf', { kind: 'base64', data: source.data });
      break;
    case 'url':
      if (typeof source.url === 'string') part = file('application/pdf', { kind: 'url', url: source.url });
      break;
    case 'file':
      if (typeof source.file_id === 'string')
        part = file('application/pdf', { kind: 'file-id', fileId: source.file_id });
      break;
    case 'text':
      // Plain text documents travel as a text/plain file, so other protocols can attach them as files.
      if (typeof source.data === 'string')
        part = file('text/plain', {
          kind: 'base64',
          data: Buffer.from(source.data, 'utf8').toString('base64'),
        });
      break;
    case 'content':
      // Custom-content documents (blocks as a document) have no canonical form; kept whole.
      return { type: 'raw', protocol: ANTHROPIC_MESSAGES, value: block };
  }
  if (!part) return invalid({ block, field: `${context.path}.source` }, context);
  if (typeof block.title === 'string') part.filename = block.title;
  withCacheControl(part, block);
  for (const field of ['context', 'citations'] as const) {
    if (block[field] !== undefined && block[field] !== null)
      context.losses.dropped(`${context.path}.${field}`, `document ${field} has no canonical form`);
  }
  return part;
}

/** https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview (tool_use block) */
function decodeToolUseBlock(block: JsonObject, context: BlockContext): Part {
  const id = asString(block.id);
  const name = asString(block.name);
  if (id === undefined) return invalid({ block, field: `${context.path}.id` }, context);
  if (name === undefined) return invalid({ block, field: `${context.path}.name` }, context);
  dropCacheControl(block, context);
  const caller = asJsonObject(block.caller);
  if (caller && caller.type !== 'direct')
    context.losses.dropped(`${context.path}.caller`, 'programmatic tool callers have no canonical form');
  if (typeof block.toolset_name === 'string')
    context.losses.dropped(`${context.path}.toolset_name`, 'toolset names have no canonical form');
  return { type: 'tool-call', id, name, arguments: JSON.stringify(block.input ?? {}) };
}

/** https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/overview (tool_result block) */
function decodeToolResultBlock(block: JsonObject, context: BlockContext): Part {
  const toolCallId = asString(block.tool_use_id);
  if (toolCallId === undefined) return invalid({ block, field: `${context.path}.tool_use_id` }, context);
  const part: ToolResultPart = { type: 'tool-result', toolCallId, content: [] };
  if (typeof block.content === 'string') {
    part.content.push({ type: 'text', text: block.content });
  } else if (Array.isArray(block.content)) {
    block.content.forEach((item, index) => {
      const path = `${context.path}.content[${index}]`;
      const decoded = decodeContentBlock(item, { ...context, path });
      if (decoded.type === 'text' || decoded.type === 'file') part.content.push(decoded);
      else
        context.losses.dropped(path, `${blockType(item)} blocks inside tool results have no canonical form`);
    });
  }
  if (typeof block.is_error === 'boolean') part.isError = block.is_error;
  const cacheControl = decodeCacheControl(block.cache_control);
  if (cacheControl) part.cacheControl = cacheControl;
  if (typeof block.toolset_name === 'string')
    context.losses.dropped(`${context.path}.toolset_name`, 'toolset names have no canonical form');
  return part;
}

function file(mediaType: string, source: FilePart['source']): FilePart {
  return { type: 'file', mediaType, source };
}

function withCacheControl(part: FilePart, block: JsonObject): void {
  const cacheControl = decodeCacheControl(block.cache_control);
  if (cacheControl) part.cacheControl = cacheControl;
}

function dropCacheControl(block: JsonObject, context: BlockContext): void {
  if (decodeCacheControl(block.cache_control))
    context.losses.dropped(
      `${context.path}.cache_control`,
      `cache_control on ${blockType(block)} blocks has no canonical form`,
    );
}

function blockType(block: unknown): string {
  return asString(asJsonObject(block)?.type) ?? 'malformed';
}

/** A known block without a field it requires: rejected from a client, kept raw from an upstream. */
function invalid(found: { block: unknown; field: string }, context: BlockContext): Part {
  if (context.strict) throw new GatewayError('field_required', { field: found.field });
  return { type: 'raw', protocol: ANTHROPIC_MESSAGES, value: found.block };
}
