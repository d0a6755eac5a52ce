/**
 * A close code and reason as received, in the form they can be sent on to the other side of the
 * relay (RFC 6455 section 7.4.1): 1005 (the peer gave no code) goes on as no code, the codes no
 * endpoint may send (1006 for a connection that dropped without a close frame, 1015 for a failed
 * TLS handshake, anything unassigned) as 1011.
 */
export interface ForwardedClose {
  /** Undefined: a close frame without a code, which the other side receives as 1005. */
  code: number | undefined;
  reason: string;
}

export function forwardableClose(code: number, reason: Buffer | string): ForwardedClose {
  const text = reason.toString();
  if (code === NO_STATUS) return { code: undefined, reason: '' };
  if (isSendable(code)) return { code, reason: text };
  return {
    code: CLOSE_INTERNAL_ERROR,
    reason: text || 'the other side of the relay went away without a close frame',
  };
}

/** Codes an endpoint may put in a close frame (what `ws` accepts in `close()`). */
export function isSendable(code: number): boolean {
  return (
    (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) ||
    (code >= 3000 && code <= 4999)
  );
}

const NO_STATUS = 1005;

/** Closes by the gateway's own decision, RFC 6455 section 7.4.1. */
export const CLOSE_GOING_AWAY = 1001;
export const CLOSE_POLICY_VIOLATION = 1008;
export const CLOSE_INTERNAL_ERROR = 1011;
