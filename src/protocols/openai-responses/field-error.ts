import { GatewayError } from '../../errors/gateway-error.js';
import { InvalidRequestError } from '../invalid-request-error.js';

/** A request field of the wrong type: `invalid field <field>: expected <type>` (400). */
export class InvalidFieldError extends InvalidRequestError {
  constructor(
    readonly field: string,
    expected: string,
  ) {
    super(`invalid field ${field}:`, `expected ${expected}`);
  }
}

/** The error for a field the protocol requires: missing, or present with the wrong type. */
export function fieldError(options: { field: string; value: unknown; expected: string }): Error {
  return options.value === undefined || options.value === null
    ? new GatewayError('field_required', { field: options.field })
    : new InvalidFieldError(options.field, options.expected);
}

export function requireString(value: unknown, field: string): string {
  if (typeof value !== 'string') throw fieldError({ field, value, expected: 'a string' });
  return value;
}
