import { GatewayError } from '../../errors/gateway-error.js';
import { InvalidRequestError } from '../../protocols/invalid-request-error.js';

/**
 * A conversion step whose client-side failure (`InvalidRequestError`: the request breaks its
 * protocol, or holds what the upstream's cannot say) is the client's 400 `convert_request_failed`;
 * any other error stays a failure of the gateway's own.
 */
export function convertingClientErrors<T>(convert: () => T): T {
  try {
    return convert();
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    throw new GatewayError('request_conversion_failed', { detail: error.message });
  }
}

/**
 * Reading an upstream's reply whose decoder throws when the reply lacks what the operation needs
 * (an embedding reply with no vectors at all): the upstream failed, so the client hears
 * 502 `upstream_error` naming why, not the gateway's own 500 `internal_error`.
 */
export function readingUpstreamReply<T>(decode: () => T): T {
  try {
    return decode();
  } catch (error) {
    if (error instanceof GatewayError) throw error;
    throw new GatewayError('upstream_unreachable', {
      detail: error instanceof Error ? error.message : String(error),
    });
  }
}
