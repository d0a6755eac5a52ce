import { setOwnMember, type JsonObject, asJsonObject, isJsonObject } from '../wire-json.js';

/** Key of this protocol's entries in canonical `extensions` maps. */
export const ANTHROPIC_MESSAGES = 'anthropic-messages';

/**
 * What a request decode keeps under `extensions['anthropic-messages']` so that a same-protocol
 * encode restores it (DESIGN principle 4).
 */
export interface AnthropicRequestExtensions {
  /** Top-level fields with no canonical meaning, by wire name (`context_management`, `service_tier`...). */
  body?: JsonObject;
  /** The client's `thinking` object when the canonical reasoning options cannot say it all (adaptive, `display`). */
  thinking?: JsonObject;
  /** Tool fields with no canonical meaning (`defer_loading`, `input_examples`...), by tool name. */
  toolFields?: Record<string, JsonObject>;
}

/** What a reply decode keeps: the matched stop sequence and the reply's container and stop details. */
export interface AnthropicReplyExtensions {
  stop_sequence?: string;
  stop_details?: unknown;
  container?: unknown;
}

/** This protocol's entry of an `extensions` map, when it is an object. */
export function ownExtensions(extensions: Record<string, unknown> | undefined): JsonObject | undefined {
  return asJsonObject(extensions?.[ANTHROPIC_MESSAGES]);
}

export function readRequestExtensions(
  extensions: Record<string, Record<string, unknown>>,
): AnthropicRequestExtensions {
  const own = ownExtensions(extensions);
  if (!own) return {};
  const result: AnthropicRequestExtensions = {};
  if (isJsonObject(own.body)) result.body = own.body;
  if (isJsonObject(own.thinking)) result.thinking = own.thinking;
  if (isJsonObject(own.toolFields)) {
    const toolFields: Record<string, JsonObject> = {};
    for (const [name, fields] of Object.entries(own.toolFields))
      if (isJsonObject(fields)) setOwnMember(toolFields, name, fields);
    result.toolFields = toolFields;
  }
  return result;
}
