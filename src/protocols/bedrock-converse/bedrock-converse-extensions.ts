import { asJsonObject, asString, isJsonObject, type JsonObject } from '../wire-json.js';

/** Key of this protocol's entries in canonical `extensions` maps and the `protocol` of its raw parts. */
export const BEDROCK_CONVERSE = 'bedrock-converse';

/**
 * What a request decode keeps under `extensions['bedrock-converse']` so that a same-protocol
 * encode restores it (DESIGN principle 4).
 */
export interface ConverseRequestExtensions {
  /** Top-level members with no canonical meaning (`guardrailConfig`, `serviceTier`, `promptVariables`...). */
  body?: JsonObject;
  /** Members of `additionalModelRequestFields` the canonical form does not hold. */
  additionalModelRequestFields?: JsonObject;
  /** A Claude `thinking` object the canonical reasoning options cannot say whole (adaptive...). */
  thinking?: JsonObject;
  /** Members of `outputConfig` other than `textFormat`, `effort` included, as sent. */
  outputConfig?: JsonObject;
}

/** What a reply decode keeps: members of `ConverseResponse` with no canonical meaning (`trace`, `metrics`...). */
export interface ConverseReplyExtensions {
  body?: JsonObject;
}

/** This protocol's entry of an `extensions` map, when it is an object. */
export function ownExtensions(extensions: Record<string, unknown> | undefined): JsonObject | undefined {
  return asJsonObject(extensions?.[BEDROCK_CONVERSE]);
}

export function readRequestExtensions(
  extensions: Record<string, Record<string, unknown>>,
): ConverseRequestExtensions {
  const own = ownExtensions(extensions);
  if (!own) return {};
  const result: ConverseRequestExtensions = {};
  if (isJsonObject(own.body)) result.body = own.body;
  if (isJsonObject(own.additionalModelRequestFields))
    result.additionalModelRequestFields = own.additionalModelRequestFields;
  if (isJsonObject(own.thinking)) result.thinking = own.thinking;
  if (isJsonObject(own.outputConfig)) result.outputConfig = own.outputConfig;
  return result;
}

/** The `outputConfig.effort` a request decode kept, if any. */
export function storedEffort(extensions: ConverseRequestExtensions): string | undefined {
  return asString(extensions.outputConfig?.effort);
}
