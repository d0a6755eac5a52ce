import { setOwnMember } from '../wire-json.js';
import type { WireObject } from './read-wire.js';
import { asWireObject, isWireObject } from './read-wire.js';

/** Key of this protocol's entries in canonical `extensions` maps. */
export const ANTHROPIC_MESSAGES = 'anthropic-messages';

/**
 * What a request decode keeps under `extensions['anthropic-messages']` so that a same-protocol
 * encode restores it (DESIGN principle 4).
 */
export interface AnthropicRequestExtensions {
  /** Top-level fields with no canonical meaning, by wire name (`context_management`, `service_tier`...). */
  body?: WireObject;
  /** The client's `thinking` object when the canonical reasoning options cannot say it all (adaptive, `display`). */
  thinking?: WireObject;
  /** Tool fields with no canonical meaning (`defer_loading`, `input_examples`...), by tool name. */
  toolFields?: Record<string, WireObject>;
}

/** What a reply decode keeps: the matched stop sequence and the reply's container and stop details. */
export interface AnthropicReplyExtensions {
  stop_sequence?: string;
  stop_details?: unknown;
  container?: unknown;
}

/** This protocol's entry of an `extensions` map, when it is an object. */
export function ownExtensions(extensions: Record<string, unknown> | undefined): WireObject | undefined {
  return asWireObject(extensions?.[ANTHROPIC_MESSAGES]);
}

export function readRequestExtensions(
  extensions: Record<string, Record<string, unknown>>,
): AnthropicRequestExtensions {
  const own = ownExtensions(extensions);
  if (!own) return {};
  const result: AnthropicRequestExtensions = {};
  if (isWireObject(own.body)) result.body = own.body;
  if (isWireObject(own.thinking)) result.thinking = own.thinking;
  if (isWireObject(own.toolFields)) {
    const toolFields: Record<string, WireObject> = {};
    for (const [name, fields] of Object.entries(own.toolFields))
      if (isWireObject(fields)) setOwnMember(toolFields, name, fields);
    result.toolFields = toolFields;
  }
  return result;
}
