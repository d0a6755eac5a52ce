import { anthropicMessagesReply } from './anthropic-messages-reply.js';
import {
  startFakeUpstream,
  type FakeUpstream,
  type FakeUpstreamOptions,
  type FakeVendor,
} from './fake-upstream.js';
import { validateAnthropicRequest } from './validate-anthropic-request.js';

/** `POST /v1/messages` with `x-api-key` and `anthropic-version`; https://docs.anthropic.com/en/api/messages */
export function startFakeAnthropic(options: FakeUpstreamOptions = {}): Promise<FakeUpstream> {
  return startFakeUpstream(anthropicVendor, options);
}

const anthropicVendor: FakeVendor = {
  defaultText: 'Hello from fake Anthropic.',
  authenticate(request, isValidKey) {
    // `x-api-key` is the documented header; the SDK from 1.x sends `Authorization: Bearer`, also accepted.
    const presented = request.headers['x-api-key'] ?? request.headers.authorization?.replace(/^Bearer /, '');
    if (!isValidKey(presented)) return { status: 401, message: 'invalid x-api-key' };
    // https://docs.anthropic.com/en/api/versioning: the header is required.
    if (!request.headers['anthropic-version'])
      return { status: 400, message: 'anthropic-version: header is required' };
    return undefined;
  },
  errorBody(status, message) {
    // https://docs.anthropic.com/en/api/errors
    const type = errorTypes[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error');
    return { type: 'error', error: { type, message }, request_id: 'req_fake' };
  },
  validate(request) {
    if (request.method !== 'POST' || request.path !== '/v1/messages') return undefined;
    return validateAnthropicRequest(request.body);
  },
  streamErrorEvent(_request, message) {
    // https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events
    return `event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'overloaded_error', message } })}\n\n`;
  },
  reply(request, content, nextId) {
    if (request.method !== 'POST' || request.path !== '/v1/messages') return undefined;
    return anthropicMessagesReply(request, content, nextId);
  },
};

const errorTypes: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};
