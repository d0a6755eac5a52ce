import type { FakeEndpoint } from './fake-endpoint.js';
import { FAKE_EMBEDDING_DIMENSIONS, fakeEmbeddingValues } from './fake-embedding-values.js';
import { asRecord, isRecord, type RecordedRequest, type RequestProblem } from './fake-upstream.js';
import { checkKnownFields, checkScalar, invalidValue } from './gemini-request-problems.js';

/** Members of `EmbedContentRequest` (https://ai.google.dev/api/embeddings#EmbedContentRequest). */
const REQUEST_FIELDS = ['model', 'content', 'taskType', 'title', 'outputDimensionality'];
/** https://ai.google.dev/api/embeddings#tasktype */
const TASK_TYPES = [
  'TASK_TYPE_UNSPECIFIED',
  'RETRIEVAL_QUERY',
  'RETRIEVAL_DOCUMENT',
  'SEMANTIC_SIMILARITY',
  'CLASSIFICATION',
  'CLUSTERING',
  'QUESTION_ANSWERING',
  'FACT_VERIFICATION',
  'CODE_RETRIEVAL_QUERY',
];
/** Requests one `batchEmbedContents` call takes at most. */
const MAX_BATCH = 100;
const PROTO = 'type.googleapis.com/google.ai.generativelanguage.v1beta';
const notAnObject = { message: 'Invalid JSON payload received. Expected an object.' };

/**
 * `POST /v1beta/models/{model}:embedContent` (https://ai.google.dev/api/embeddings#method:-models.embedcontent):
 * one vector for the text parts of `content`, `outputDimensionality` long (default 8). Like the
 * real API, the reply carries no token usage.
 */
export const geminiEmbedContent: FakeEndpoint = {
  validate(body) {
    if (!isRecord(body)) return notAnObject;
    return checkEmbedRequest(body, { request: 'EmbedContentRequest', path: '' });
  },
  reply(request) {
    return { kind: 'json', body: { embedding: embed(request.body) } };
  },
};

/**
 * `POST /v1beta/models/{model}:batchEmbedContents`
 * (https://ai.google.dev/api/embeddings#method:-models.batchembedcontents): one vector per item of
 * `requests`, each item naming the model of the URL as `models/{model}`. No usage either.
 */
export const geminiBatchEmbedContents: FakeEndpoint = {
  validate(body, request) {
    if (!isRecord(body)) return notAnObject;
    const unknown = checkKnownFields(body, ['requests']);
    if (unknown) return unknown;
    const { requests } = body;
    if (!Array.isArray(requests) || requests.length === 0)
      return violation('BatchEmbedContentsRequest', 'requests', 'requests is not specified');
    if (requests.length > MAX_BATCH)
      return violation(
        'BatchEmbedContentsRequest',
        'requests',
        `at most ${MAX_BATCH} requests can be in one batch`,
      );
    const urlModel = `models/${modelOfPath(request)}`;
    for (const [index, item] of requests.entries()) {
      const at = `requests[${index}]`;
      if (!isRecord(item)) return invalidValue(at, `${PROTO}.EmbedContentRequest`, item);
      const problem = checkEmbedRequest(item, { request: 'BatchEmbedContentsRequest', path: `${at}.` });
      if (problem) return problem;
      if (typeof item.model !== 'string' || !item.model.startsWith('models/'))
        return violation('BatchEmbedContentsRequest', `${at}.model`, 'unexpected model name format');
      if (item.model !== urlModel)
        return {
          message: `Model name in the request (${item.model}) does not match the model name in the URL (${urlModel}).`,
        };
    }
    return undefined;
  },
  reply(request) {
    const requests = asRecord(request.body).requests as unknown[];
    return { kind: 'json', body: { embeddings: requests.map(embed) } };
  },
};

/** A rule broken by a field, in Gemini's field-violation form. */
function violation(request: string, path: string, description: string): RequestProblem {
  return { message: `* ${request}.${path}: ${description}\n` };
}

function checkEmbedRequest(
  body: Record<string, unknown>,
  where: { request: string; path: string },
): RequestProblem | undefined {
  const { request, path } = where;
  const unknown = checkKnownFields(body, REQUEST_FIELDS, path ? path.slice(0, -1) : undefined);
  if (unknown) return unknown;
  const problem = checkContent(body.content, where);
  if (problem) return problem;
  const taskType = body.taskType ?? body.task_type;
  if (taskType !== undefined && !TASK_TYPES.includes(taskType as string))
    return invalidValue(`${path}task_type`, `${PROTO}.TaskType`, taskType);
  const { title } = body;
  const badTitle = checkScalar(title, `${path}title`, 'TYPE_STRING');
  if (badTitle) return badTitle;
  if (title !== undefined && title !== null && taskType !== 'RETRIEVAL_DOCUMENT')
    return violation(request, `${path}title`, 'title is only supported for task_type RETRIEVAL_DOCUMENT');
  const dimensions = body.outputDimensionality ?? body.output_dimensionality;
  const badDimensions = checkScalar(dimensions, `${path}output_dimensionality`, 'TYPE_INT32');
  if (badDimensions) return badDimensions;
  if (typeof dimensions === 'number' && dimensions < 1)
    return violation(request, `${path}output_dimensionality`, 'output_dimensionality must be positive');
  return undefined;
}

/** `content.parts`: text parts only, at least one (the text embedding models take nothing else). */
function checkContent(
  content: unknown,
  where: { request: string; path: string },
): RequestProblem | undefined {
  const at = `${where.path}content`;
  if (content === undefined || content === null)
    return violation(where.request, at, 'content is not specified');
  if (!isRecord(content)) return invalidValue(at, `${PROTO}.Content`, content);
  const unknown = checkKnownFields(content, ['parts', 'role'], at);
  if (unknown) return unknown;
  const { parts } = content;
  if (!Array.isArray(parts) || parts.length === 0)
    return violation(where.request, `${at}.parts`, 'contents must not be empty');
  for (const [index, part] of parts.entries()) {
    if (!isRecord(part) || typeof part.text !== 'string')
      return violation(where.request, `${at}.parts[${index}]`, 'only text parts can be embedded');
  }
  return undefined;
}

/** A `ContentEmbedding` of one request: the text parts embedded as one text, one line each. */
function embed(item: unknown): { values: number[] } {
  const body = asRecord(item);
  const parts = asRecord(body.content).parts as Record<string, unknown>[];
  const text = parts.map((part) => part.text).join('\n');
  const dimensions = body.outputDimensionality ?? body.output_dimensionality;
  return {
    values: fakeEmbeddingValues(
      text,
      typeof dimensions === 'number' ? dimensions : FAKE_EMBEDDING_DIMENSIONS,
    ),
  };
}

/** The `{model}` of `/v1beta/models/{model}:{method}`. */
function modelOfPath(request: RecordedRequest): string {
  const match = /^\/v1beta\/models\/([^/:]+):/.exec(request.path);
  return decodeURIComponent(match?.[1] ?? '');
}
