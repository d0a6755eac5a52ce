import type { EmbeddingRequest } from '../../ir/embedding.js';
import type { LossLog } from '../../ir/loss.js';
import { InvalidRequestError } from '../invalid-request-error.js';

/**
 * The resource name Gemini wants in each item of a batch
 * (https://ai.google.dev/api/embeddings#EmbedContentRequest, `model`: "Format: models/{model}"),
 * where it must name the model of the URL. A name given with its collection stays as it is.
 */
export function geminiEmbedModelResource(model: string): string {
  return model.startsWith('models/') || model.startsWith('tunedModels/') ? model : `models/${model}`;
}

/**
 * A canonical embedding request as a `models/{model}:batchEmbedContents` body
 * (https://ai.google.dev/api/embeddings#method:-models.batchembedcontents): one item per input,
 * each naming the model, with the input's task type and title and the request's dimensions.
 * Gemini embeds text only (token ids are OpenAI's) and takes no end-user id.
 */
export function encodeGeminiBatchEmbedContentsRequest(
  request: EmbeddingRequest,
  context: { losses: LossLog },
): Record<string, unknown> {
  if (request.user !== undefined)
    context.losses.dropped('user', 'Gemini embedding requests carry no end-user id');
  const model = geminiEmbedModelResource(request.model);
  const requests = request.inputs.map((input) => {
    if (input.type !== 'text')
      throw new InvalidRequestError('input', 'holds token ids, and a Gemini upstream embeds text only');
    return {
      model,
      content: { parts: [{ text: input.text }] },
      ...(input.taskType !== undefined && { taskType: input.taskType }),
      ...(input.title !== undefined && { title: input.title }),
      ...(request.dimensions !== undefined && { outputDimensionality: request.dimensions }),
    };
  });
  return { requests };
}
