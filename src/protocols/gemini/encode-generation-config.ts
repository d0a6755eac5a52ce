import type { LossLog } from '../../ir/loss.js';
import type { CanonicalRequest } from '../../ir/request.js';
import { encodeGeminiThinkingConfig } from './encode-thinking-config.js';
import type { GeminiRequestExtensions } from './gemini-extensions.js';
import type { GeminiGenerationConfig } from './wire-types.js';

/** Gemini takes at most five stop sequences (https://ai.google.dev/api/generate-content#generationconfig). */
const MAX_STOP_SEQUENCES = 5;

/**
 * `generationConfig` (https://ai.google.dev/api/generate-content#generationconfig) from the
 * canonical sampling, response format and reasoning options, over the Gemini-only members a
 * Gemini client sent. A JSON schema goes out as `responseJsonSchema`, which takes full JSON Schema.
 */
export function encodeGeminiGenerationConfig(
  request: CanonicalRequest,
  options: { extensions: GeminiRequestExtensions; losses: LossLog },
): GeminiGenerationConfig | undefined {
  const { losses } = options;
  const config: GeminiGenerationConfig = { ...options.extensions.generationConfig };
  if (request.maxOutputTokens !== undefined) config.maxOutputTokens = request.maxOutputTokens;
  if (request.temperature !== undefined) config.temperature = request.temperature;
  if (request.topP !== undefined) config.topP = request.topP;
  if (request.topK !== undefined) config.topK = request.topK;
  if (request.stop !== undefined && request.stop.length > 0) {
    if (request.stop.length > MAX_STOP_SEQUENCES)
      losses.coerced(
        'stop',
        `Gemini takes at most ${MAX_STOP_SEQUENCES} stop sequences; the rest were left out`,
      );
    config.stopSequences = request.stop.slice(0, MAX_STOP_SEQUENCES);
  }
  if (request.seed !== undefined) config.seed = request.seed;
  if (request.presencePenalty !== undefined) config.presencePenalty = request.presencePenalty;
  if (request.frequencyPenalty !== undefined) config.frequencyPenalty = request.frequencyPenalty;

  const format = request.responseFormat;
  if (format !== undefined) {
    switch (format.type) {
      case 'text':
        config.responseMimeType = 'text/plain';
        break;
      case 'json-object':
        config.responseMimeType = 'application/json';
        break;
      case 'json-schema':
        config.responseMimeType = 'application/json';
        config.responseJsonSchema = format.schema;
        if (format.description !== undefined)
          losses.dropped('responseFormat.description', 'Gemini has no description for a response schema');
        break;
      default: {
        const unhandled: never = format;
        return unhandled;
      }
    }
  }

  const thinking = encodeGeminiThinkingConfig(request.reasoning, options.extensions.thinkingConfig);
  if (thinking !== undefined) config.thinkingConfig = thinking;
  return Object.keys(config).length > 0 ? config : undefined;
}
