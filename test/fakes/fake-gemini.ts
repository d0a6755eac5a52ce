import type { FakeEndpoint } from './fake-endpoint.js';
import {
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
  type RecordedRequest,
} from './fake-upstream.js';
import { geminiBatchEmbedContents, geminiEmbedContent } from './gemini-embed.js';
import { geminiGenerateReply } from './gemini-generate-reply.js';
import { geminiImagenPredict } from './gemini-imagen.js';
import { validateGeminiRequest } from './validate-gemini-request.js';

const methodPath = /^\/v1beta\/models\/([^/:]+):([A-Za-z]+)$/;

/** The model and method of a `/v1beta/models/{model}:{method}` path. */
export function geminiTarget(request: RecordedRequest): { model: string; method: string } | undefined {
  const match = methodPath.exec(request.path);
  if (request.method !== 'POST' || !match) return undefined;
  return { model: decodeURIComponent(match[1] ?? ''), method: match[2] ?? '' };
}

/** Methods other than generating content, by name. */
const otherMethods = new Map<string, FakeEndpoint>([
  ['embedContent', geminiEmbedContent],
  ['batchEmbedContents', geminiBatchEmbedContents],
  ['predict', geminiImagenPredict],
]);

/**
 * `POST /v1beta/models/{model}:generateContent` and `:streamGenerateContent?alt=sse`, keyed by
 * `x-goog-api-key` or `?key=`; https://ai.google.dev/api/generate-content
 */
export function startFakeGemini(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream(geminiVendor, options);
}

const geminiVendor: FakeVendor = {
  defaultText: 'Hello from fake Gemini.',
  authenticate(request, isValidKey) {
    const presented = request.headers['x-goog-api-key'] ?? request.query.get('key');
    if (isValidKey(presented)) return undefined;
    return { status: 401, message: 'API key not valid. Please pass a valid API key.' };
  },
  errorBody(status, message) {
    // https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes
    return {
      error: {
        code: status,
        message,
        status: statuses[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT'),
      },
    };
  },
  validate(request) {
    const target = geminiTarget(request);
    if (!target) return undefined;
    if (isGenerateMethod(target.method)) return validateGeminiRequest(request.body, { model: target.model });
    return otherMethods.get(target.method)?.validate(request.body, request);
  },
  streamErrorEvent(_request, message) {
    // A mid-stream error is a data chunk holding the usual error body.
    return `data: ${JSON.stringify({ error: { code: 503, message, status: 'UNAVAILABLE' } })}\r\n\r\n`;
  },
  reply(request, content, nextId) {
    const target = geminiTarget(request);
    if (!target) return undefined;
    if (!isGenerateMethod(target.method))
      return otherMethods.get(target.method)?.reply(request, content, nextId);
    const stream = target.method === 'streamGenerateContent';
    if (stream && request.query.get('alt') !== 'sse') return undefined;
    return geminiGenerateReply({ request, content, nextId, model: target.model, stream });
  },
};

function isGenerateMethod(method: string): boolean {
  return method === 'generateContent' || method === 'streamGenerateContent';
}

const statuses: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};
