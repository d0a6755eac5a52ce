import { GatewayError } from '../errors/gateway-error.js';
import type { RequestContext } from './request-context.js';

export interface RenderedError {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Family B error types by status, as the messages API names them. */
function anthropicErrorType(status: number): string {
  switch (status) {
    case 400:
      return 'invalid_request_error';
    case 401:
      return 'authentication_error';
    case 403:
      return 'permission_error';
    case 404:
      return 'not_found_error';
    case 413:
      return 'request_too_large';
    case 429:
      return 'rate_limit_error';
    case 529:
      return 'overloaded_error';
    default:
      return 'api_error';
  }
}

/** Renders an error once, in the caller's language and the route group's shape (client-api section 7). */
export function renderError(error: GatewayError, context: RequestContext): RenderedError {
  const message = `${error.localizedMessage(context.language)} (request id: ${context.requestId})`;
  if (context.errorShape === 'anthropic' && !error.selection) {
    return {
      status: error.status,
      headers: error.headers,
      body: { type: 'error', error: { type: anthropicErrorType(error.status), message } },
    };
  }
  return {
    status: error.status,
    headers: error.headers,
    body: { error: { message, type: error.type, param: error.param, code: error.code } },
  };
}
