import type { CanonicalRequest } from '../../ir/request.js';
import type { EncodeRequestOptions } from '../protocol-codec.js';
import { encodeGeminiContents } from './encode-contents.js';
import { encodeGeminiGenerationConfig } from './encode-generation-config.js';
import { encodeGeminiTools } from './encode-tools.js';
import { readGeminiRequestExtensions } from './gemini-extensions.js';
import type { GeminiRequest } from './wire-types.js';

/**
 * A generateContent request body (https://ai.google.dev/api/generate-content#request-body) for a
 * Gemini upstream. The model and streaming are the URL's business (the provider builds it).
 * Function call ids go out only when they came from a Gemini client: Gemini pairs calls and
 * responses by name and order, and some of its endpoints refuse an `id` they did not issue.
 */
export function encodeGeminiRequest(request: CanonicalRequest, options: EncodeRequestOptions): GeminiRequest {
  const { losses } = options;
  const extensions = readGeminiRequestExtensions(request.extensions);
  const wireIds = new Set(extensions.functionCallIds ?? []);
  const { contents, system } = encodeGeminiContents(request, { losses, sendId: (id) => wireIds.has(id) });
  const { tools, toolConfig } = encodeGeminiTools(request, { extensions, losses });
  const generationConfig = encodeGeminiGenerationConfig(request, { extensions, losses });
  if (request.user !== undefined) losses.dropped('user', 'Gemini has no end-user id');

  return {
    ...extensions.body,
    contents,
    ...(system.length > 0 && { systemInstruction: { parts: system } }),
    ...(tools && { tools }),
    ...(toolConfig && { toolConfig }),
    ...(generationConfig && { generationConfig }),
  };
}
