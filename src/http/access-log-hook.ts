import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { writeAccessLog, type AccessLogLevel } from '../observability/access-log.js';
import type { Logger } from '../observability/logger.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The access log level of the route's requests; `info` when unset. Probes log at `debug`. */
    accessLog?: AccessLogLevel;
  }
}

/**
 * The first `onRequest` hook: one access log line per request once its connection is done with it
 * (the last byte sent, or the client gone), streams included. Costs nothing at levels that drop it.
 */
export function logEachRequest(parent: Logger) {
  // Access lines are built field by field from plain values, never from an object that could hold
  // a key, so they skip the redaction pass: with its wildcard paths it costs more than the line.
  const logger = parent.child({}, { redact: [] });
  return function logWhenAnswered(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const level = request.routeOptions.config.accessLog ?? 'info';
    if (logger.isLevelEnabled(level)) {
      reply.raw.once('close', () => {
        const relay = (request.gateway as FastifyRequest['gateway'] | undefined)?.relay;
        const write = () => logRequest(logger, level, request, reply);
        // A client that left mid-stream: the relay reports how the request ended a moment later.
        if (relay && relay.outcome === undefined) relay.whenEnded = write;
        else write();
      });
    }
    done();
  };
}

function logRequest(
  logger: Logger,
  level: AccessLogLevel,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const context = request.gateway as FastifyRequest['gateway'] | undefined;
  const query = request.url.indexOf('?');
  writeAccessLog(logger, level, {
    requestId: request.id,
    method: request.method,
    path: query < 0 ? request.url : request.url.slice(0, query),
    status: reply.raw.statusCode,
    latencyMs: context ? performance.now() - context.startedAt : 0,
    ip: context?.clientIp ?? request.socket.remoteAddress ?? '',
    userId: context?.principal?.user.id,
    keyId: context?.principal?.key.id,
    completed: reply.raw.writableFinished,
    outcome: context?.relay?.outcome,
  });
}
