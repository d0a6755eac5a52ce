import type { FakeEndpoint } from './fake-endpoint.js';
import {
  FAKE_EMBEDDING_DIMENSIONS,
  fakeEmbeddingValues,
  float32LittleEndianBase64,
  tokensAsText,
} from './fake-embedding-values.js';
import { asRecord, isRecord, type RequestProblem } from './fake-upstream.js';
import { checkNumber, checkString, invalidType } from './openai-request-problems.js';

/** Members of `CreateEmbeddingRequest` (https://platform.openai.com/docs/api-reference/embeddings/create). */
const MEMBERS = new Set(['model', 'input', 'encoding_format', 'dimensions', 'user']);
const ENCODINGS = ['float', 'base64'];
/** "any array must be 2048 dimensions or less" */
const MAX_INPUTS = 2048;

/**
 * `POST /v1/embeddings`: one vector per input, in order, as floats or as base64 float32 per
 * `encoding_format`, `dimensions` long (default 8). `prompt_tokens` is the scripted input count
 * (`usage.inputTokens`); `omitUsage` leaves `usage` out, as some compatible servers do.
 */
export const openaiEmbeddings: FakeEndpoint = {
  validate: validateEmbeddingsRequest,
  reply(request, content) {
    const body = asRecord(request.body);
    const dimensions = typeof body.dimensions === 'number' ? body.dimensions : FAKE_EMBEDDING_DIMENSIONS;
    const base64 = body.encoding_format === 'base64';
    const data = inputTexts(body.input).map((text, index) => {
      const values = fakeEmbeddingValues(text, dimensions);
      return { object: 'embedding', index, embedding: base64 ? float32LittleEndianBase64(values) : values };
    });
    const tokens = content.usage.inputTokens;
    return {
      kind: 'json',
      body: {
        object: 'list',
        data,
        model: body.model,
        ...(!content.omitUsage && { usage: { prompt_tokens: tokens, total_tokens: tokens } }),
      },
    };
  },
};

/** What the real API refuses, in its own words (the embeddings endpoint keeps the older wording). */
export function validateEmbeddingsRequest(body: unknown): RequestProblem | undefined {
  if (!isRecord(body))
    return {
      message:
        "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)",
    };
  const unknown = Object.keys(body).find((name) => !MEMBERS.has(name));
  if (unknown !== undefined) return { message: `Unrecognized request argument supplied: ${unknown}` };
  if (body.model === undefined) return { message: 'you must provide a model parameter' };
  return (
    checkString(body.model, 'model') ??
    checkInput(body.input) ??
    checkEncoding(body.encoding_format) ??
    checkNumber(body.dimensions, 'dimensions', { min: 1, integer: true }) ??
    (body.user === null ? undefined : checkString(body.user, 'user', { optional: true }))
  );
}

/** A string, or a non-empty array of strings, of token ids, or of token id arrays; no empty string. */
function checkInput(input: unknown): RequestProblem | undefined {
  if (input === undefined) return { message: "'input' is a required property" };
  const invalid = {
    message:
      "'$.input' is invalid. Please check the API reference: https://platform.openai.com/docs/api-reference.",
  };
  if (typeof input === 'string') return input === '' ? invalid : undefined;
  if (!Array.isArray(input)) return invalidType('input', 'a string or an array', input);
  if (input.length === 0 || input.length > MAX_INPUTS) return invalid;
  const fits =
    input.every((item) => typeof item === 'string' && item !== '') ||
    input.every(isTokenId) ||
    input.every((item) => Array.isArray(item) && item.length > 0 && item.every(isTokenId));
  return fits ? undefined : invalid;
}

function checkEncoding(value: unknown): RequestProblem | undefined {
  if (value === undefined || value === null || ENCODINGS.includes(value as string)) return undefined;
  return {
    message: `Invalid value for 'encoding_format' = ${String(value)}. Supported values: ['float', 'base64'].`,
  };
}

function isTokenId(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

/** The text each input stands for: a string itself, a token array written out. */
function inputTexts(input: unknown): string[] {
  if (typeof input === 'string') return [input];
  const items = Array.isArray(input) ? input : [];
  if (items.every((item) => typeof item === 'number')) return [tokensAsText(items as number[])];
  return items.map((item) => (typeof item === 'string' ? item : tokensAsText(item as number[])));
}
