import type { StreamError } from '../../ir/stream-event.js';
import { asJsonObject, asString } from '../wire-json.js';

/** Error types of the Messages API with their HTTP statuses (https://docs.anthropic.com/en/api/errors). */
export const ANTHROPIC_ERROR_STATUS = {
  invalid_request_error: 400,
  authentication_error: 401,
  billing_error: 402,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  timeout_error: 504,
  overloaded_error: 529,
} as const;

export type AnthropicErrorType = keyof typeof ANTHROPIC_ERROR_STATUS;

export function isAnthropicErrorType(value: string | undefined): value is AnthropicErrorType {
  return value !== undefined && Object.hasOwn(ANTHROPIC_ERROR_STATUS, value);
}

/**
 * The error object of an `event: error` (https://docs.anthropic.com/en/docs/build-with-claude/streaming#error-events)
 * -> the canonical stream error, with the HTTP status its type stands for (`overloaded_error`: 529).
 */
export function decodeAnthropicStreamError(raw: unknown): StreamError {
  const error = asJsonObject(raw);
  const type = asString(error?.type);
  const decoded: StreamError = {
    type: 'error',
    message: asString(error?.message) ?? 'upstream stream error',
  };
  if (type) decoded.code = type;
  if (isAnthropicErrorType(type)) decoded.status = ANTHROPIC_ERROR_STATUS[type];
  return decoded;
}

/**
 * The Anthropic error type for a canonical error: the one its HTTP status stands for, else an
 * Anthropic type the code already names, else `api_error` (`overloaded_error` for a code saying so).
 */
export function toAnthropicErrorType(options: {
  code: string | undefined;
  status: number | undefined;
}): AnthropicErrorType {
  const byStatus = options.status === undefined ? undefined : errorTypeForStatus(options.status);
  if (byStatus) return byStatus;
  const code = options.code ?? '';
  if (isAnthropicErrorType(code)) return code;
  return code.includes('overloaded') ? 'overloaded_error' : 'api_error';
}

function errorTypeForStatus(status: number): AnthropicErrorType | undefined {
  switch (status) {
    case 400:
    case 422:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 402:
      return 'billing_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 503:
    case 529:
      return 'overloaded_error';
    case 504:
      return 'timeout_error';
    default:
      return status >= 500 && status < 600 ? 'api_error' : undefined;
  }
}
