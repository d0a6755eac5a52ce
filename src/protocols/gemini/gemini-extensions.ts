import type { ReasoningPart } from '../../ir/content.js';
import {
  setOwnMember,
  asBoolean,
  asStringArray,
  asJsonObject,
  isJsonObject,
  type JsonObject,
} from '../wire-json.js';

/** Key of Gemini's entries in canonical `extensions` and of its `raw` parts and provider tools. */
export const GEMINI = 'gemini';

/**
 * `extensions.gemini` of a canonical request: what only generateContent says, kept so that
 * encoding for a Gemini upstream restores it (decode(encode(decode(x))) equals decode(x)).
 */
export interface GeminiRequestExtensions {
  /** Top-level fields with no canonical place: `safetySettings`, `cachedContent`, `labels`... */
  body?: JsonObject;
  /** `generationConfig` fields with no canonical place: `candidateCount`, `responseModalities`... */
  generationConfig?: JsonObject;
  /** The client's own `thinkingConfig`, sent again while the reasoning options it decodes to are unchanged. */
  thinkingConfig?: JsonObject;
  /** The client's own `toolConfig`, sent again while the tool choice it decodes to is unchanged. */
  toolConfig?: JsonObject;
  /** Function declaration fields beyond name, description and parameters (`behavior`, `response`...), by name. */
  functionDeclarations?: Record<string, JsonObject>;
  /** Function call ids that arrived on the wire; only these go back to Gemini as `id`. */
  functionCallIds?: string[];
}

export function readGeminiRequestExtensions(
  extensions: Record<string, Record<string, unknown>>,
): GeminiRequestExtensions {
  const own = asJsonObject(extensions[GEMINI]);
  if (own === undefined) return {};
  const declarations = asJsonObject(own.functionDeclarations);
  const result: GeminiRequestExtensions = {};
  const body = asJsonObject(own.body);
  if (body) result.body = body;
  const generationConfig = asJsonObject(own.generationConfig);
  if (generationConfig) result.generationConfig = generationConfig;
  const thinkingConfig = asJsonObject(own.thinkingConfig);
  if (thinkingConfig) result.thinkingConfig = thinkingConfig;
  const toolConfig = asJsonObject(own.toolConfig);
  if (toolConfig) result.toolConfig = toolConfig;
  if (declarations) {
    const byName: Record<string, JsonObject> = {};
    for (const [name, extra] of Object.entries(declarations))
      if (isJsonObject(extra)) setOwnMember(byName, name, extra);
    result.functionDeclarations = byName;
  }
  const ids = asStringArray(own.functionCallIds);
  if (ids) result.functionCallIds = ids;
  return result;
}

/** `extensions.gemini` of a canonical reply: candidate and response fields with no canonical place. */
export interface GeminiReplyExtensions {
  /** `safetyRatings`, `citationMetadata`, `groundingMetadata`, `finishMessage`, `avgLogprobs`... */
  candidate?: JsonObject;
  /** `promptFeedback`, `modelStatus`... */
  response?: JsonObject;
}

export function readGeminiReplyExtensions(
  extensions: Record<string, Record<string, unknown>>,
): GeminiReplyExtensions {
  const own = asJsonObject(extensions[GEMINI]);
  const candidate = asJsonObject(own?.candidate);
  const response = asJsonObject(own?.response);
  return { ...(candidate && { candidate }), ...(response && { response }) };
}

/**
 * Where a reasoning part decoded from Gemini came from: a `thought: true` part (`thought: true`),
 * or only the `thoughtSignature` of a text or file part (`thought: false`), which goes back on
 * the part that follows it.
 */
export function geminiThoughtOrigin(part: ReasoningPart): boolean | undefined {
  return asBoolean(asJsonObject(part.extensions?.[GEMINI])?.thought);
}

export function withGeminiThoughtOrigin(thought: boolean): Record<string, unknown> {
  return { [GEMINI]: { thought } };
}
