import type { Part } from '../../ir/content.js';
import { isJsonObject, type JsonObject } from '../wire-json.js';

/** The protocol name, the key of this protocol's `extensions` and `raw` parts. */
export const PROTOCOL = 'openai-responses';

/**
 * Item detail a request carries that no canonical part has a field for, kept in
 * `extensions['openai-responses'].itemDetail` so a same-protocol encode restores it. Wire field
 * names are snake_case; this key is not, so it never collides with a body field kept verbatim.
 */
export const ITEM_DETAIL_KEY = 'itemDetail';

export interface RequestItemDetail {
  /** Wire role of each `system`-role input message in order, kept when any of them was `developer`. */
  systemRoles?: ('system' | 'developer')[];
  /** Members of `function_call` items besides type, call_id, name and arguments (item id, status...), by call_id. */
  functionCalls?: Record<string, JsonObject>;
  /** Members of `function_call_output` items besides type, call_id and output, by call_id. */
  functionCallOutputs?: Record<string, JsonObject>;
  /** Members of function tools besides type, name, description, parameters and strict, by tool name. */
  functionTools?: Record<string, JsonObject>;
}

/** Part-level detail in `part.extensions['openai-responses']` of text parts. */
export interface TextPartDetail {
  /** Members of the message item the text came from (id, status, phase), so it is rebuilt as one item. */
  item?: JsonObject;
  annotations?: unknown[];
  logprobs?: unknown[];
  /** The text was a `refusal` content part. */
  refusal?: true;
}

/** Part-level detail in `part.extensions['openai-responses']` of reasoning parts. */
export interface ReasoningPartDetail {
  /** The reasoning item id (`rs_...`). */
  id?: string;
  /** The summary entries, kept when there were several (the part's text joins them). */
  summary?: unknown[];
  /** `reasoning_text` content entries, verbatim. */
  content?: unknown[];
  /** Other members of the item (status...). */
  rest?: JsonObject;
}

/** Raw parts of this protocol wrap either a whole input item or one content part of a message. */
export type RawValue = { item: JsonObject } | { content: JsonObject };

export function rawItem(item: JsonObject): Part {
  return { type: 'raw', protocol: PROTOCOL, value: { item } satisfies RawValue };
}

export function rawContent(content: JsonObject): Part {
  return { type: 'raw', protocol: PROTOCOL, value: { content } satisfies RawValue };
}

export function readRawValue(value: unknown): RawValue | undefined {
  if (!isJsonObject(value)) return undefined;
  if (isJsonObject(value.item)) return { item: value.item };
  if (isJsonObject(value.content)) return { content: value.content };
  return undefined;
}

/** This protocol's detail of a part, when the part came from this protocol. */
export function partDetail(extensions: Record<string, unknown> | undefined): JsonObject | undefined {
  const detail = extensions?.[PROTOCOL];
  return isJsonObject(detail) ? detail : undefined;
}
