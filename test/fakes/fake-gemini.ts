import {
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
} from './fake-upstream.js';
import { geminiGenerateReply } from './gemini-generate-reply.js';
import { validateGeminiRequest } from './validate-gemini-request.js';

const generatePath = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/;

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
    const match = generatePath.exec(request.path);
    if (request.method !== 'POST' || !match) return undefined;
    return validateGeminiRequest(request.body, { model: decodeURIComponent(match[1] ?? '') });
  },
  streamErrorEvent(_request, message) {
    // A mid-stream error is a data chunk holding the usual error body.
    return `data: ${JSON.stringify({ error: { code: 503, message, status: 'UNAVAILABLE' } })}\r\n\r\n`;
  },
  reply(request, content, nextId) {
    const match = generatePath.exec(request.path);
    if (request.method !== 'POST' || !match) return undefined;
    const stream = match[2] === 'streamGenerateContent';
    if (stream && request.query.get('alt') !== 'sse') return undefined;
    return geminiGenerateReply({
      request,
      content,
      nextId,
      model: decodeURIComponent(match[1] ?? ''),
      stream,
    });
  },
};

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
