import { z } from 'zod';
import { lenient } from '../lenient-schema.js';

/**
 * What the gateway reads of a Gemini upstream's replies and stream chunks, after
 * `GenerateContentResponse` and `Candidate` in @google/genai (dist/genai.d.ts). Lenient: members
 * Google adds later pass through, and a member of the wrong type reads as absent, never as a
 * failure (https://ai.google.dev/api/generate-content#v1beta.GenerateContentResponse). Parts are
 * read one by one by `readGeminiPart`, usage by `convertGeminiUsage`.
 */

const text = lenient(z.string());
const opaque = z.unknown().optional();

/** `Candidate` (https://ai.google.dev/api/generate-content#candidate). */
const candidate = z.looseObject({
  content: lenient(z.looseObject({ role: text, parts: lenient(z.array(z.unknown())) })),
  finishReason: text,
  index: lenient(z.number()),
  groundingMetadata: opaque,
});

/**
 * A `GenerateContentResponse`: a whole reply, or one chunk of `streamGenerateContent?alt=sse`,
 * where `{"error": {code, message, status}}` may also arrive.
 */
export const geminiResponseSchema = z.looseObject({
  candidates: lenient(z.array(lenient(candidate))),
  promptFeedback: lenient(z.looseObject({ blockReason: text })),
  usageMetadata: opaque,
  responseId: text,
  modelVersion: text,
  createTime: text,
  error: lenient(z.looseObject({ code: lenient(z.number()), message: text, status: text })),
});

export type GeminiResponseRead = z.infer<typeof geminiResponseSchema>;
export type GeminiCandidateRead = z.infer<typeof candidate>;
