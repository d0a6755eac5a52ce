import type { IncomingMessage } from 'node:http';
import type { RequestContext } from '../request-context.js';
import { writeAccessLog } from '../../observability/access-log.js';
import type { Logger } from '../../observability/logger.js';
import type { RequestOutcome } from '../../relay/relay-observer.js';

/**
 * The access log line of an upgrade, as the HTTP app writes one per request: once it was refused
 * (its status), or once its session ended (101, with the session's outcome). Upgrades bypass the
 * app's hooks, so the relay writes them itself.
 */
export function upgradeAccessLog(parent: Logger) {
  // As the HTTP hook does: the line is built from plain values, never from an object with a key.
  const logger = parent.child({}, { redact: [] });
  return function logUpgrade(
    request: IncomingMessage,
    context: RequestContext,
    answer: { status: number; outcome?: RequestOutcome | undefined },
  ): void {
    if (!logger.isLevelEnabled('info')) return;
    const url = request.url ?? '';
    const query = url.indexOf('?');
    writeAccessLog(logger, 'info', {
      requestId: context.requestId,
      method: request.method ?? 'GET',
      path: query < 0 ? url : url.slice(0, query),
      status: answer.status,
      latencyMs: performance.now() - context.startedAt,
      ip: context.clientIp,
      userId: context.principal?.user.id,
      keyId: context.principal?.key.id,
      completed: true,
      outcome: answer.outcome,
    });
  };
}
