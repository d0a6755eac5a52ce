import { formatSseEvent } from '../sse/sse-event-reader.js';

/** Error types a Messages stream can carry (https://docs.anthropic.com/en/api/errors). */
const ERROR_TYPES = [
  'invalid_request_error',
  'authentication_error',
  'billing_error',
  'permission_error',
  'not_found_error',
  'request_too_large',
  'rate_limit_error',
  'api_error',
  'timeout_error',
  'overloaded_error',
];

/**
 * `event: error` as Anthropic sends it mid-stream: an Anthropic error type is kept, the gateway's
 * own codes become `api_error` (or `overloaded_error` for an overloaded upstream).
 */
export function formatAnthropicStreamError(options: { message: string; code: string | undefined }): string {
  const code = options.code ?? '';
  const type = ERROR_TYPES.includes(code)
    ? code
    : code.includes('overloaded')
      ? 'overloaded_error'
      : 'api_error';
  return formatSseEvent({
    event: 'error',
    data: JSON.stringify({ type: 'error', error: { type, message: options.message } }),
  });
}
