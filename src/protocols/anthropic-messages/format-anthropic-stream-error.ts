import { formatSseEvent } from '../sse/sse-event-reader.js';
import { toAnthropicErrorType } from './anthropic-error-types.js';

/**
 * `event: error` as Anthropic sends it mid-stream
 * (https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events): the error type
 * follows the status the error stands for (529 and 503 `overloaded_error`, 429
 * `rate_limit_error`...); without one, an Anthropic error type is kept and the gateway's own codes
 * become `api_error`.
 */
export function formatAnthropicStreamError(options: {
  message: string;
  code: string | undefined;
  status?: number;
}): string {
  const type = toAnthropicErrorType({ code: options.code, status: options.status });
  return formatSseEvent({
    event: 'error',
    data: JSON.stringify({ type: 'error', error: { type, message: options.message } }),
  });
}
