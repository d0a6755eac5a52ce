import { fakeOpenAIRealtime, type FakeRealtime } from './fake-openai-realtime.js';
import {
  defaultFakeUsage,
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
} from './fake-upstream.js';
import { openaiAlphaSearch } from './openai-alpha-search.js';
import { openaiChatReply } from './openai-chat-reply.js';
import { openaiEmbeddings } from './openai-embeddings.js';
import { openaiImages } from './openai-images.js';
import { openaiResponsesCompact } from './openai-responses-compact.js';
import { openaiResponsesReply } from './openai-responses-reply.js';
import { openaiSpeech } from './openai-speech.js';
import { openaiTranscriptions } from './openai-transcriptions.js';
import { openaiTranslations } from './openai-translations.js';
import type { FakeEndpoint } from './fake-endpoint.js';
import { validateOpenAIChatRequest } from './validate-openai-chat-request.js';
import { validateOpenAIResponsesRequest } from './validate-openai-responses-request.js';

/** Every `POST` path the fake serves, Bearer auth; https://platform.openai.com/docs/api-reference */
export const openaiEndpoints: ReadonlyMap<string, FakeEndpoint> = new Map<string, FakeEndpoint>([
  ['/v1/chat/completions', { validate: validateOpenAIChatRequest, reply: openaiChatReply }],
  ['/v1/responses', { validate: validateOpenAIResponsesRequest, reply: openaiResponsesReply }],
  ['/v1/responses/compact', openaiResponsesCompact],
  ['/v1/alpha/search', openaiAlphaSearch],
  ['/v1/images/generations', openaiImages],
  ['/v1/embeddings', openaiEmbeddings],
  ['/v1/audio/speech', openaiSpeech],
  ['/v1/audio/transcriptions', openaiTranscriptions],
  ['/v1/audio/translations', openaiTranslations],
]);

export interface FakeOpenAI extends FakeUpstream {
  /** The Realtime API's WebSocket on the same origin (fake-openai-realtime.ts). */
  realtime: FakeRealtime;
}

/** The OpenAI API's endpoints (see `openaiEndpoints`), and the Realtime WebSocket. */
export async function startFakeOpenAI(options: FakeUpstreamOptions = {}): Promise<FakeOpenAI> {
  const realtime = fakeOpenAIRealtime({
    text: options.replyText ?? openaiVendor.defaultText,
    usage: { ...defaultFakeUsage, ...options.usage },
  });
  const upstream = await startFakeUpstream({ ...openaiVendor, upgrade: realtime.upgrade }, options);
  return {
    ...upstream,
    realtime: realtime.controls,
    clear() {
      upstream.clear();
      realtime.clear();
    },
    close() {
      realtime.close();
      return upstream.close();
    },
  };
}

/** Shared with fakes of vendors that front OpenAI's API (Azure, OpenAI-compatible presets). */
export const openaiVendor: FakeVendor = {
  defaultText: 'Hello from fake OpenAI.',
  authenticate(request, isValidKey) {
    const presented = request.headers.authorization?.replace(/^Bearer /, '');
    if (isValidKey(presented)) return undefined;
    // The real API masks the key it echoes; some compatible vendors echo it whole, as here.
    return {
      status: 401,
      message: presented
        ? `Incorrect API key provided: ${presented}. You can find your API key at https://platform.openai.com/account/api-keys.`
        : "You didn't provide an API key.",
    };
  },
  errorBody(status, message, detail) {
    // https://platform.openai.com/docs/guides/error-codes
    const [type, code] = errorKinds[status] ?? (status >= 500 ? errorKinds[500]! : errorKinds[400]!);
    return { error: { message, type, param: detail?.param ?? null, code: detail?.code ?? code } };
  },
  validate(request) {
    if (request.method !== 'POST') return undefined;
    return openaiEndpoints.get(request.path)?.validate(request.body, request);
  },
  streamErrorEvent(request, message) {
    // Chat streams carry `{"error": {...}}` as a data chunk; Responses streams an `error` event.
    // https://platform.openai.com/docs/api-reference/responses-streaming/error
    if (request.path === '/v1/responses')
      return `event: error\ndata: ${JSON.stringify({ type: 'error', code: 'server_error', message, param: null, sequence_number: 99 })}\n\n`;
    return `data: ${JSON.stringify({ error: { message, type: 'server_error', param: null, code: null } })}\n\n`;
  },
  reply(request, content, nextId) {
    if (request.method !== 'POST') return undefined;
    return openaiEndpoints.get(request.path)?.reply(request, content, nextId);
  },
};

const errorKinds: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'unknown_url'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', 'service_unavailable'],
};
