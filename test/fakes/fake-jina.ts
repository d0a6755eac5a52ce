import {
  asRecord,
  isRecord,
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
  type RequestProblem,
} from './fake-upstream.js';

/**
 * Jina's rerank API: `POST /v1/rerank`, Bearer auth, errors as `{"detail": ...}`.
 * https://jina.ai/reranker/ (the request and reply many OpenAI-compatible servers copy)
 */
export function startFakeJina(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream(jinaVendor, options);
}

const jinaVendor: FakeVendor = {
  defaultText: 'Paris is the capital of France.',
  authenticate(request, isValidKey) {
    const presented = request.headers.authorization?.replace(/^Bearer /, '');
    return isValidKey(presented) ? undefined : { status: 401, message: 'Invalid API key' };
  },
  errorBody: (_status, message) => ({ detail: message }),
  validate(request) {
    if (request.method !== 'POST' || request.path !== '/v1/rerank') return undefined;
    return validateRerank(request.body);
  },
  streamErrorEvent: (_request, message) => `data: ${JSON.stringify({ detail: message })}\n\n`,
  reply(request, content) {
    if (request.method !== 'POST' || request.path !== '/v1/rerank') return undefined;
    const body = asRecord(request.body);
    const documents = (body.documents as unknown[]).map(documentText);
    const query = String(body.query);
    const ranked = documents
      .map((text, index) => ({ index, text, relevance_score: relevance(query, text) }))
      .sort((a, b) => b.relevance_score - a.relevance_score || a.index - b.index)
      .slice(0, typeof body.top_n === 'number' ? body.top_n : documents.length);
    const returnDocuments = body.return_documents !== false;
    const tokens = [query, ...documents].join(' ').split(/\s+/).filter(Boolean).length;
    return {
      kind: 'json',
      body: {
        model: body.model,
        ...(!content.omitUsage && { usage: { total_tokens: tokens } }),
        results: ranked.map(({ index, text, relevance_score }) => ({
          index,
          ...(returnDocuments && { document: { text } }),
          relevance_score,
        })),
      },
    };
  },
};

function validateRerank(body: unknown): RequestProblem | undefined {
  if (!isRecord(body)) return { message: 'Expecting value: line 1 column 1 (char 0)' };
  if (typeof body.model !== 'string') return { message: 'field required: model' };
  if (typeof body.query !== 'string' || body.query === '') return { message: 'field required: query' };
  if (!Array.isArray(body.documents) || body.documents.length === 0)
    return { message: 'field required: documents' };
  if (!body.documents.every((item) => typeof item === 'string' || typeof asRecord(item).text === 'string'))
    return { message: 'documents must be strings or objects with text' };
  const { top_n: topN } = body;
  if (topN !== undefined && (typeof topN !== 'number' || !Number.isInteger(topN) || topN < 1))
    return { message: 'top_n must be a positive integer' };
  return undefined;
}

function documentText(document: unknown): string {
  return typeof document === 'string' ? document : String(asRecord(document).text);
}

/** Deterministic: the share of the query's words that the document contains. */
function relevance(query: string, document: string): number {
  const words = query.toLowerCase().split(/\W+/).filter(Boolean);
  const text = document.toLowerCase();
  const hits = words.filter((word) => text.includes(word)).length;
  return Math.round((hits / Math.max(1, words.length)) * 1e6) / 1e6;
}
