import type { IssuedToken, ReasoningPart } from '../../ir/content.js';
import type { LossLog } from '../../ir/loss.js';
import { readIssuedToken, writeIssuedToken } from '../issued-token.js';
import { asArray, isJsonObject, withoutKeys, asString, type JsonObject } from '../wire-json.js';
import { partDetail, PROTOCOL, type ReasoningPartDetail } from './responses-extensions.js';
import type { ResponsesReasoningItem } from './wire-types.js';

/** Summary parts are separate paragraphs; the canonical text joins them like this. */
export const SUMMARY_SEPARATOR = '\n\n';

/**
 * A `reasoning` item (https://platform.openai.com/docs/api-reference/responses/object#responses/object-output):
 * the text is the summary, or the `reasoning_text` content when there is no summary; the item id
 * stays in the part's extensions so the item can be sent back. `encrypted_content` is an issued
 * token (see `readEncryptedContent`).
 */
export function decodeReasoningItem(item: JsonObject): ReasoningPart {
  const summary = asArray(item.summary);
  const content = Array.isArray(item.content) ? item.content : undefined;
  const summaryText = joinTexts(summary);
  const text = summary.length > 0 ? summaryText : joinTexts(content ?? []);
  const detail: ReasoningPartDetail = {};
  const id = asString(item.id);
  if (id !== undefined) detail.id = id;
  // One summary entry is its text again; several, or one beside `content`, are kept whole.
  if (summary.length > 1 || (summary.length > 0 && content !== undefined)) detail.summary = summary;
  if (content !== undefined) detail.content = content;
  const rest = withoutKeys(item, ['type', 'id', 'summary', 'content', 'encrypted_content']);
  if (rest) detail.rest = rest;
  const part: ReasoningPart = { type: 'reasoning', text, extensions: { [PROTOCOL]: detail } };
  const encrypted = asString(item.encrypted_content);
  if (encrypted !== undefined) Object.assign(part, readEncryptedContent(encrypted));
  return part;
}

/**
 * `encrypted_content` holds OpenAI's own encrypted reasoning as it is, which stands beside the
 * summary like a signature, and other vendors' tokens behind their marker: `anthropic:` a thinking
 * signature over the summary text, `anthropic-redacted:` redacted thinking, `gemini:` a thought
 * signature.
 */
export function readEncryptedContent(
  text: string,
): { signature: IssuedToken } | { redactedData: IssuedToken } {
  const { token, role } = readIssuedToken(text, 'openai');
  return role === 'redacted' ? { redactedData: token } : { signature: token };
}

/**
 * The token a client's reasoning item carries in `encrypted_content`: the redacted data, else the
 * signature. A Responses reasoning item has room for one; a second is dropped with the loss recorded.
 */
export function encryptedContentForClient(
  part: Pick<ReasoningPart, 'signature' | 'redactedData'>,
  path: string,
  losses: LossLog,
): string | undefined {
  if (part.redactedData !== undefined) {
    if (part.signature !== undefined)
      losses.dropped(`${path}.signature`, 'a Responses reasoning item holds one encrypted content');
    return writeIssuedToken(part.redactedData, { ownVendor: 'openai', role: 'redacted' });
  }
  if (part.signature !== undefined)
    return writeIssuedToken(part.signature, { ownVendor: 'openai', role: 'signature' });
  return undefined;
}

/**
 * A tool call's signature (Gemini's thought signature) as the reasoning item that follows its
 * `function_call` item: no summary, the marked token as `encrypted_content`. After, not before:
 * in a stream the signature is only known once the call has been sent.
 */
export function toolCallSignatureItem(id: string, signature: IssuedToken): ResponsesReasoningItem {
  return {
    id,
    type: 'reasoning',
    summary: [],
    encrypted_content: writeIssuedToken(signature, { ownVendor: 'openai', role: 'signature' }),
  };
}

/** A reasoning part that is only a Gemini tool call signature, as `toolCallSignatureItem` wrote it. */
export function isToolCallSignature(part: ReasoningPart): part is ReasoningPart & { signature: IssuedToken } {
  return part.text === '' && part.redactedData === undefined && part.signature?.issuer === 'gemini';
}

/** The inverse of `decodeReasoningItem`, with `fallbackId` for reasoning that did not come from this protocol. */
export function encodeReasoningItem(options: {
  part: ReasoningPart;
  fallbackId: string | undefined;
  encryptedContent: string | undefined;
}): ResponsesReasoningItem {
  const { part, fallbackId, encryptedContent } = options;
  const detail = partDetail(part.extensions) ?? {};
  const id = asString(detail.id) ?? fallbackId;
  const item: ResponsesReasoningItem = {
    ...(isJsonObject(detail.rest) ? detail.rest : {}),
    type: 'reasoning',
    ...(id !== undefined && { id }),
    summary: summaryOf(part.text, detail),
  };
  if (Array.isArray(detail.content)) item.content = detail.content;
  if (encryptedContent !== undefined) item.encrypted_content = encryptedContent;
  return item;
}

function summaryOf(text: string, detail: JsonObject): unknown[] {
  if (Array.isArray(detail.summary) && joinTexts(detail.summary) === text) return detail.summary;
  if (Array.isArray(detail.content) && joinTexts(detail.content) === text) return [];
  return text === '' ? [] : [{ type: 'summary_text', text }];
}

function joinTexts(entries: unknown[]): string {
  return entries
    .map((entry) => (isJsonObject(entry) ? (asString(entry.text) ?? '') : ''))
    .join(SUMMARY_SEPARATOR);
}
