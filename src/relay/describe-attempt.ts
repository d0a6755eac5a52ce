import type { Cancellation } from './cancellation.js';
import type { AttemptResult } from './relay-observer.js';
import type { UpstreamOutcome } from './upstream-outcome.js';

/** How one upstream call ended, in the bounded set of outcomes operators count. */
export function describeAttempt(outcome: UpstreamOutcome, cancellation: Cancellation): AttemptResult {
  switch (outcome.kind) {
    case 'answered':
    case 'streaming':
      return { outcome: 'success', statusCode: outcome.reply.statusCode };
    case 'upstream-error': {
      const status = outcome.reply.statusCode;
      if (cancellation.aborted) return { outcome: 'aborted', statusCode: status };
      if (status === 401 || status === 403) return { outcome: 'refused', statusCode: status };
      if (status === 429) return { outcome: 'rate_limited', statusCode: status };
      return { outcome: status >= 500 ? 'server_error' : 'client_error', statusCode: status };
    }
    case 'timeout':
      return { outcome: cancellation.aborted ? 'aborted' : 'timeout', statusCode: undefined };
    case 'unreachable':
    case 'unserved':
      return { outcome: cancellation.aborted ? 'aborted' : 'unreachable', statusCode: undefined };
    default: {
      const unreachable: never = outcome;
      return unreachable;
    }
  }
}
