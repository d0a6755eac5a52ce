import { isJsonObject, type JsonObject } from '../wire-json.js';
import { geminiEmbedModelResource } from './encode-embed-request.js';

/**
 * The client's own embedContent or batchEmbedContents body for a Gemini upstream, with the one
 * declared patch: every `model` it names becomes the upstream's. Gemini refuses a batch item whose
 * `model` differs from the model of the URL
 * (https://ai.google.dev/api/embeddings#method:-models.batchembedcontents), and the client named
 * the gateway's model, not the channel's. Anything else is left for the upstream to judge.
 */
export function prepareGeminiEmbedPassthrough(
  body: JsonObject,
  options: { upstreamModel: string },
): JsonObject {
  const model = geminiEmbedModelResource(options.upstreamModel);
  const prepared: JsonObject = { ...body };
  if (body.model !== undefined) prepared.model = model;
  if (Array.isArray(body.requests))
    prepared.requests = body.requests.map((item: unknown) =>
      isJsonObject(item) ? { ...item, model } : item,
    );
  return prepared;
}
