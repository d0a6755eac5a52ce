import type { ReasoningPart } from '../../ir/content.js';
import { asArray, isJsonObject, withoutKeys, asString, type JsonObject } from '../wire-json.js';
import { partDetail, PROTOCOL, type ReasoningPartDetail } from './responses-extensions.js';

/** Summary parts are separate paragraphs; the canonical text joins them like this. */
export const SUMMARY_SEPARATOR = '\n\n';

/**
 * A `reasoning` item (https://platform.openai.com/docs/api-reference/responses/object#responses/object-output):
 * the text is the summary, or the `reasoning_text` content when there is no summary;
 * `encrypted_content` is redacted data that must return unchanged; the item id stays in the
 * part's extensions so the item can be sent back.
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
  if (encrypted !== undefined) part.redactedData = encrypted;
  return part;
}

/** The inverse, with `fallbackId` for reasoning that did not come from this protocol. */
export function encodeReasoningItem(part: ReasoningPart, fallbackId: string | undefined): JsonObject {
  const detail = partDetail(part.extensions) ?? {};
  const id = asString(detail.id) ?? fallbackId;
  const item: JsonObject = { ...(isJsonObject(detail.rest) ? detail.rest : {}) };
  item.type = 'reasoning';
  if (id !== undefined) item.id = id;
  item.summary = summaryOf(part.text, detail);
  if (Array.isArray(detail.content)) item.content = detail.content;
  if (part.redactedData !== undefined) item.encrypted_content = part.redactedData;
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
