import { setTimeout as delay } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import { closeUpstreamDispatcher } from './providers/upstream-dispatcher.js';
import type { RealtimeRelay } from './http/realtime/realtime-relay.js';
import type { GatewayServices } from './services.js';

/**
 * Graceful stop: no new requests; open requests and streams get the grace period to finish, and
 * those still open after it are ended (and charged for what they produced); then every pending
 * settlement and usage record is written before the connections close. Realtime sessions have no
 * end of their own to wait for: each closes (1001) as soon as no response of its runs.
 */
const SETTLEMENT_WAIT_MS = 10_000;

export async function shutDown(
  services: GatewayServices,
  app: FastifyInstance,
  graceMs: number,
  realtime?: RealtimeRelay,
): Promise<void> {
  // Readiness fails first, while requests are still accepted, so load balancers drain the instance.
  await services.telemetry.drain();
  realtime?.drain();
  const closing = app.close();
  const idle = await services.tracker.waitForIdle(graceMs);
  if (!idle) services.tracker.abortAll('the gateway is shutting down');
  // Keep-alive connections whose last stream just ended would hold the server open.
  app.server.closeIdleConnections();
  const closed = await Promise.race([closing.then(() => true), delay(1_000).then(() => false)]);
  if (!closed) app.server.closeAllConnections();
  await closing;
  // The server closes once every socket did; the sessions' own records are written just after.
  await realtime?.closed();
  // Settlements still failing after a while (database down) stop being retried: their holds stay
  // in the database and are returned when the next process starts.
  const settled = await Promise.race([
    services.tracker.settled().then(() => true),
    delay(SETTLEMENT_WAIT_MS).then(() => false),
  ]);
  if (!settled) services.ledger.stopRetrying();
  await services.tracker.settled();
  // Records not moved now stay in their holds and are stored by the next start.
  await services.ledger.close().catch(() => undefined);
  await services.holdKeeper.stop().catch(() => undefined);
  await services.webhooks.stop();
  await services.retention.stop();
  await services.topupReconciler.stop();
  services.health.close();
  await services.routing.close();
  await services.rateLimiter.close();
  await services.loginThrottle.close();
  await services.changes.close();
  await closeUpstreamDispatcher();
  await services.telemetry.close();
  await services.store.close();
}
