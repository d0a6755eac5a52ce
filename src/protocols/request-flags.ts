import { GatewayError } from '../errors/gateway-error.js';
import type { JsonObject } from './wire-json.js';

/**
 * Checks of the request members the gateway reads itself to decide what to do (stream or not, the
 * usage chunk, the output cap, how many choices): one of the wrong type is the client's 400
 * `invalid_request` naming it, before anything is reserved or sent, never a failure of the
 * gateway's own once the upstream answers in a way the member did not mean. Absent and `null`
 * are the same (the SDKs type these members `T | null`).
 */
export function invalidMember(field: string, expected: string): GatewayError {
  return new GatewayError('field_invalid', { field, expected }, { param: field });
}

export function checkBoolean(value: unknown, field: string): void {
  if (value !== undefined && value !== null && typeof value !== 'boolean')
    throw invalidMember(field, 'a boolean');
}

/** A token count: a non-negative integer the pre-charge can multiply exactly. */
export function checkTokenCount(value: unknown, field: string): void {
  if (value === undefined || value === null) return;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw invalidMember(field, 'a non-negative integer');
}

/** How many choices (candidates) to generate: a positive integer, at most `max` where the vendor sets one. */
export function checkChoiceCount(value: unknown, field: string, max?: number): void {
  if (value === undefined || value === null) return;
  const inRange =
    Number.isSafeInteger(value) && (value as number) >= 1 && (max === undefined || (value as number) <= max);
  if (!inRange)
    throw invalidMember(field, max === undefined ? 'a positive integer' : `an integer between 1 and ${max}`);
}

/** The object, when present; a member that is not one is refused. */
export function checkObject(value: unknown, field: string): JsonObject | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidMember(field, 'an object');
  return value as JsonObject;
}
