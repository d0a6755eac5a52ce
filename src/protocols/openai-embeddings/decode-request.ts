import type { EmbeddingInput, EmbeddingRequest } from '../../ir/embedding.js';
import type { LossLog } from '../../ir/loss.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { asString } from '../wire-json.js';

/** How the client wants its vectors written back. */
export type OpenAIEmbeddingEncoding = 'float' | 'base64';

export interface DecodedOpenAIEmbeddingsRequest {
  request: EmbeddingRequest;
  /** A reply option, not part of the request an upstream sees: the gateway writes the vectors itself. */
  encodingFormat: OpenAIEmbeddingEncoding;
}

/** Members of `CreateEmbeddingRequest`; any other has no canonical place. */
const MEMBERS = new Set(['model', 'input', 'dimensions', 'encoding_format', 'user']);

const INPUT_SHAPES =
  'must be a string, an array of strings, an array of token ids or an array of token id arrays';

/**
 * A `POST /v1/embeddings` body (https://platform.openai.com/docs/api-reference/embeddings/create)
 * in the canonical form, checked as strictly as OpenAI checks it, since the gateway answers in
 * OpenAI's place when it converts: `input` as a string, strings, token ids or token id arrays,
 * never empty; `dimensions` a positive integer; `encoding_format` `float` or `base64`.
 */
export function decodeOpenAIEmbeddingsRequest(
  body: Record<string, unknown>,
  context: { losses: LossLog },
): DecodedOpenAIEmbeddingsRequest {
  for (const name of Object.keys(body)) {
    if (!MEMBERS.has(name) && body[name] !== undefined)
      context.losses.dropped(name, 'not an OpenAI embeddings request member');
  }
  return {
    request: {
      model: asString(body.model) ?? '',
      inputs: decodeInput(body.input),
      dimensions: decodeDimensions(body.dimensions),
      user: decodeUser(body.user),
    },
    encodingFormat: decodeEncodingFormat(body.encoding_format),
  };
}

function decodeInput(input: unknown): EmbeddingInput[] {
  if (typeof input === 'string') return [{ type: 'text', text: nonEmpty(input) }];
  if (!Array.isArray(input)) throw new InvalidRequestError('input', INPUT_SHAPES);
  if (input.length === 0) throw new InvalidRequestError('input', 'must not be empty');
  if (input.every((item) => typeof item === 'string'))
    return input.map((text: string) => ({ type: 'text', text: nonEmpty(text) }));
  if (input.every(isTokenId)) return [{ type: 'tokens', tokens: input }];
  if (input.every((item) => Array.isArray(item) && item.length > 0 && item.every(isTokenId)))
    return input.map((tokens: number[]) => ({ type: 'tokens', tokens }));
  throw new InvalidRequestError('input', INPUT_SHAPES);
}

/** OpenAI refuses an empty string among the inputs; so does the gateway in its place. */
function nonEmpty(text: string): string {
  if (text === '') throw new InvalidRequestError('input', 'must not hold an empty string');
  return text;
}

function isTokenId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function decodeDimensions(value: unknown): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new InvalidRequestError('dimensions', 'must be a positive integer');
  return value;
}

function decodeEncodingFormat(value: unknown): OpenAIEmbeddingEncoding {
  if (value === undefined || value === null) return 'float';
  if (value === 'float' || value === 'base64') return value;
  throw new InvalidRequestError('encoding_format', "must be 'float' or 'base64'");
}

function decodeUser(value: unknown): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError('user', 'must be a string');
  return value;
}
