import { GatewayError } from '../errors/gateway-error.js';

/**
 * A client request that breaks what its protocol requires, found while decoding it: the one error
 * every codec throws for it. The relay reports it as a 400 `convert_request_failed` naming the
 * field; any other error thrown while decoding is a failure of the gateway itself (500
 * `internal_error`).
 */
export class InvalidRequestError extends Error {
  constructor(
    readonly path: string,
    problem: string,
  ) {
    super(`${path} ${problem}`);
    this.name = 'InvalidRequestError';
  }
}

/** The error for a field the protocol requires: missing (`field_required`), or of the wrong type. */
export function fieldError(options: { field: string; value: unknown; expected: string }): Error {
  return options.value === undefined || options.value === null
    ? new GatewayError('field_required', { field: options.field })
    : new InvalidRequestError(options.field, `must be ${options.expected}`);
}

export function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw fieldError({ field, value, expected: 'a string' });
  return value;
}
