import type { TimeoutLimit } from '../errors/catalogue.js';
import { describeTransportError } from '../providers/describe-transport-error.js';

/** The reason an attempt is aborted with when its whole-reply deadline (`upstream_timeout_s`) passes. */
export class ReplyDeadline extends Error {
  constructor() {
    super('upstream_timeout_s passed');
  }
}

export type TransportFailure =
  { kind: 'timeout'; limit: TimeoutLimit } | { kind: 'unreachable'; detail: string };

/**
 * What an error thrown while talking to an upstream means: one of the gateway's own limits ran out
 * (never reported by the HTTP client's internal names), or the upstream could not be reached.
 */
export function classifyTransportFailure(error: unknown, options: { stream: boolean }): TransportFailure {
  if (error instanceof ReplyDeadline || (error as { cause?: unknown })?.cause instanceof ReplyDeadline)
    return { kind: 'timeout', limit: 'upstream_timeout_s' };
  // Happy-eyeballs connects fail with one error per address tried.
  const errors = error instanceof AggregateError ? error.errors : [error];
  if (
    errors.length > 0 &&
    errors.every((each) => (each as { code?: unknown })?.code === 'UND_ERR_CONNECT_TIMEOUT')
  )
    return { kind: 'timeout', limit: 'connect_timeout_s' };
  switch ((error as { code?: unknown })?.code) {
    case 'UND_ERR_CONNECT_TIMEOUT':
      return { kind: 'timeout', limit: 'connect_timeout_s' };
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
      return { kind: 'timeout', limit: options.stream ? 'stream_idle_timeout_s' : 'upstream_timeout_s' };
    default:
      return { kind: 'unreachable', detail: describeTransportError(error) };
  }
}
