import { GatewayError } from '../errors/gateway-error.js';
import { toAnthropicErrorType } from '../protocols/anthropic-messages/anthropic-error-types.js';
import type { RequestContext } from './request-context.js';

export interface RenderedError {
  status: number;
  headers: Record<string, string>;
  body: unknown;
}

/** Any error as the client sees it: a gateway error as it is, anything else as an internal error. */
export function toGatewayError(error: unknown): GatewayError {
  if (error instanceof GatewayError) return error;
  const code = (error as { code?: string }).code;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new GatewayError('body_too_large', { limit: 0 });
  const detail = error instanceof Error ? error.message : String(error);
  return new GatewayError('internal_error', { detail });
}

/** Renders an error once, in the caller's language and the route group's shape (client-api section 7). */
export function renderError(error: GatewayError, context: RequestContext): RenderedError {
  const message = `${error.localizedMessage(context.language)} (request id: ${context.requestId})`;
  if (context.errorShape === 'anthropic' && !error.selection) {
    return {
      status: error.status,
      headers: error.headers,
      body: {
        type: 'error',
        error: { type: toAnthropicErrorType({ code: undefined, status: error.status }), message },
      },
    };
  }
  return {
    status: error.status,
    headers: error.headers,
    body: { error: { message, type: error.type, param: error.param, code: error.code } },
  };
}
