import { GatewayError } from '../errors/gateway-error.js';

/** 400 `invalid_request` whose message names the offending field. */
export function invalidField(field: string, problem: string): GatewayError {
  const topLevel = field.split(/[.[]/)[0] ?? field;
  return new GatewayError(
    'admin_invalid_request',
    { detail: `field "${field}": ${problem}` },
    { param: topLevel },
  );
}

/** 400 `invalid_request` about the request as a whole (body not JSON, not an object). */
export function invalidRequest(detail: string): GatewayError {
  return new GatewayError('admin_invalid_request', { detail });
}

/** 404 `not_found`; non-numeric ids land here too, since no such resource can exist. */
export function notFound(resource: string, id: string | number): GatewayError {
  return new GatewayError('admin_not_found', { resource, id });
}
