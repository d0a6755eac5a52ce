import { listLogs } from '../api/logs-api';
import type { UsageLog } from '../api/types';

/** The usage writer batches its inserts: a record appears shortly after its request ends. */
const LOOKUP_INTERVAL_MS = 500;
const LOOKUP_ATTEMPTS = 20;

/**
 * The usage record of one request of the playground's key (`GET /api/me/logs?key_id=`), found by
 * its request id: its `cost` is what the balance was charged. Undefined when it did not appear
 * within a few seconds.
 */
export async function findUsageRecord(options: {
  keyId: number;
  requestId: string;
  signal?: AbortSignal;
  intervalMs?: number;
}): Promise<UsageLog | undefined> {
  const intervalMs = options.intervalMs ?? LOOKUP_INTERVAL_MS;
  for (let attempt = 0; attempt < LOOKUP_ATTEMPTS; attempt += 1) {
    if (options.signal?.aborted) return undefined;
    const page = await listLogs({ scope: 'own', query: { key_id: options.keyId, limit: 20 } });
    const record = page.data.find((log) => log.request_id === options.requestId);
    if (record) return record;
    await new Promise((resolve) => window.setTimeout(resolve, intervalMs));
  }
  return undefined;
}
