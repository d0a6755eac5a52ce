import type { FakeEndpoint } from './fake-endpoint.js';
import { asRecord, isRecord } from './fake-upstream.js';
import { checkString } from './openai-request-problems.js';

/**
 * `POST /v1/alpha/search`: standalone web search. Takes a `model` and search commands, answers the
 * results of each query, with no token usage.
 */
export const openaiAlphaSearch: FakeEndpoint = {
  validate(body) {
    if (!isRecord(body)) return { message: 'We could not parse the JSON body of your request.' };
    return checkString(body.model, 'model');
  },
  reply(request, content, nextId) {
    const queries = asRecord(asRecord(request.body).commands).search_query;
    const results = (Array.isArray(queries) ? queries : []).map((query) => ({
      query: asRecord(query).q,
      results: [{ title: content.text, url: 'https://example.com/result', snippet: content.text }],
    }));
    return { kind: 'json', body: { id: nextId('search_'), object: 'search.result', results } };
  },
};
