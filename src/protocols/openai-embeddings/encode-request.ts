import type { EmbeddingRequest } from '../../ir/embedding.js';
import type { LossLog } from '../../ir/loss.js';
import { InvalidRequestError } from '../invalid-request-error.js';

/**
 * A canonical embedding request as a `POST /v1/embeddings` body
 * (https://platform.openai.com/docs/api-reference/embeddings/create). Vectors are asked for as
 * floats: the gateway writes the client's reply itself. One input goes as a plain string (or one
 * token array), several as an array. OpenAI has no per-input task type or title: they are dropped.
 */
export function encodeOpenAIEmbeddingsRequest(
  request: EmbeddingRequest,
  context: { losses: LossLog },
): Record<string, unknown> {
  for (const [index, input] of request.inputs.entries()) {
    if (input.type !== 'text') continue;
    if (input.taskType !== undefined)
      context.losses.dropped(`inputs[${index}].taskType`, 'OpenAI embeddings take no task type');
    if (input.title !== undefined)
      context.losses.dropped(`inputs[${index}].title`, 'OpenAI embeddings take no document title');
  }
  return {
    model: request.model,
    input: encodeInput(request),
    encoding_format: 'float',
    ...(request.dimensions !== undefined && { dimensions: request.dimensions }),
    ...(request.user !== undefined && { user: request.user }),
  };
}

/** `input` holds texts or token arrays, never both (the API's four shapes). */
function encodeInput(request: EmbeddingRequest): string | string[] | number[] | number[][] {
  const { inputs } = request;
  const texts: string[] = [];
  const tokens: number[][] = [];
  for (const input of inputs) {
    if (input.type === 'text') texts.push(input.text);
    else tokens.push(input.tokens);
  }
  if (texts.length > 0 && tokens.length > 0)
    throw new InvalidRequestError('input', 'mixes texts and token ids, which OpenAI embeddings cannot take');
  if (tokens.length > 0) return tokens.length === 1 ? (tokens[0] ?? []) : tokens;
  return texts.length === 1 ? (texts[0] ?? '') : texts;
}
