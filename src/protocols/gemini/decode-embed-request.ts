import type { EmbeddingRequest, EmbeddingTextInput } from '../../ir/embedding.js';
import type { LossLog } from '../../ir/loss.js';
import { InvalidRequestError } from '../invalid-request-error.js';
import { isJsonObject, type JsonObject } from '../wire-json.js';

/**
 * Members of `EmbedContentRequest` (https://ai.google.dev/api/embeddings#EmbedContentRequest).
 * `model` names the model the path already names; the planner sets the upstream's.
 */
const REQUEST_MEMBERS = new Set(['model', 'content', 'taskType', 'title', 'outputDimensionality']);
/** `role` means nothing to an embedding (the SDK writes `user`); only the text is embedded. */
const CONTENT_MEMBERS = new Set(['parts', 'role']);

/** Several text parts of one content are embedded as one document; other protocols take one text. */
const PART_SEPARATOR = '\n';

/**
 * A `models/{model}:embedContent` body (https://ai.google.dev/api/embeddings#method:-models.embedcontent)
 * in the canonical form: one text input from `content.parts`, with its `taskType` and `title`.
 */
export function decodeGeminiEmbedContentRequest(
  body: JsonObject,
  context: { losses: LossLog },
): EmbeddingRequest {
  const { input, dimensions } = decodeOne(body, { path: '', losses: context.losses });
  return { model: '', inputs: [input], dimensions, user: undefined };
}

/**
 * A `models/{model}:batchEmbedContents` body
 * (https://ai.google.dev/api/embeddings#method:-models.batchembedcontents): one input per item of
 * `requests`. Each item may ask for its own `outputDimensionality`, the canonical request has one
 * for all: items that differ cannot be converted.
 */
export function decodeGeminiBatchEmbedContentsRequest(
  body: JsonObject,
  context: { losses: LossLog },
): EmbeddingRequest {
  const { requests } = body;
  if (!Array.isArray(requests)) throw new InvalidRequestError('requests', 'must be an array');
  if (requests.length === 0) throw new InvalidRequestError('requests', 'must not be empty');
  for (const name of Object.keys(body)) {
    if (name !== 'requests' && body[name] !== undefined)
      context.losses.dropped(name, 'not a batchEmbedContents request member');
  }
  const decoded = requests.map((item, index) =>
    decodeOne(item, { path: `requests[${index}].`, losses: context.losses }),
  );
  const dimensions = decoded[0]?.dimensions;
  if (decoded.some((item) => item.dimensions !== dimensions))
    throw new InvalidRequestError(
      'requests',
      'ask for different outputDimensionality values, and an OpenAI-protocol upstream takes one for all inputs',
    );
  return { model: '', inputs: decoded.map((item) => item.input), dimensions, user: undefined };
}

function decodeOne(
  value: unknown,
  context: { path: string; losses: LossLog },
): { input: EmbeddingTextInput; dimensions: number | undefined } {
  const { path, losses } = context;
  if (!isJsonObject(value)) throw new InvalidRequestError(path.slice(0, -1) || 'body', 'must be an object');
  for (const name of Object.keys(value)) {
    if (!REQUEST_MEMBERS.has(name) && value[name] !== undefined)
      losses.dropped(`${path}${name}`, 'not an embedContent request member');
  }
  const input: EmbeddingTextInput = { type: 'text', text: decodeContent(value.content, context) };
  const taskType = optionalString(value.taskType, `${path}taskType`);
  const title = optionalString(value.title, `${path}title`);
  if (taskType !== undefined) input.taskType = taskType;
  if (title !== undefined) input.title = title;
  return {
    input,
    dimensions: decodeDimensionality(value.outputDimensionality, `${path}outputDimensionality`),
  };
}

/** The text of a `Content` (https://ai.google.dev/api/caching#Content): text parts only. */
function decodeContent(content: unknown, context: { path: string; losses: LossLog }): string {
  const path = `${context.path}content`;
  if (content === undefined || content === null) throw new InvalidRequestError(path, 'is required');
  if (!isJsonObject(content)) throw new InvalidRequestError(path, 'must be an object');
  for (const name of Object.keys(content)) {
    if (!CONTENT_MEMBERS.has(name) && content[name] !== undefined)
      context.losses.dropped(`${path}.${name}`, 'not a Content member');
  }
  const { parts } = content;
  if (!Array.isArray(parts) || parts.length === 0)
    throw new InvalidRequestError(`${path}.parts`, 'must hold at least one text part');
  const texts = parts.map((part, index) => {
    const partPath = `${path}.parts[${index}]`;
    if (!isJsonObject(part) || typeof part.text !== 'string')
      throw new InvalidRequestError(
        partPath,
        'is not text, and an OpenAI-protocol upstream embeds text only',
      );
    for (const name of Object.keys(part)) {
      if (name !== 'text' && part[name] !== undefined)
        context.losses.dropped(`${partPath}.${name}`, 'only the text of a part is embedded');
    }
    return part.text;
  });
  if (texts.length > 1)
    context.losses.coerced(`${path}.parts`, 'several text parts joined into one text, one line each');
  return texts.join(PART_SEPARATOR);
}

function optionalString(value: unknown, path: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw new InvalidRequestError(path, 'must be a string');
  return value;
}

function decodeDimensionality(value: unknown, path: string): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1)
    throw new InvalidRequestError(path, 'must be a positive integer');
  return value;
}
