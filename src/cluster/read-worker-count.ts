import { availableParallelism } from 'node:os';

const MAX_WORKERS = 1024;

/**
 * `GATEWAY_WORKERS`: how many server processes to run on this machine (admin-api section 9). A
 * whole number, or `auto` for one per core the process may use; 1 (the default) runs no cluster.
 */
export function readWorkerCount(value: string | undefined, cores = availableParallelism()): number {
  if (value === undefined || value === '') return 1;
  if (value.trim().toLowerCase() === 'auto') return Math.max(1, cores);
  const count = Number(value);
  if (!Number.isInteger(count) || count < 1 || count > MAX_WORKERS)
    throw new Error(
      `GATEWAY_WORKERS must be "auto" or a whole number from 1 to ${MAX_WORKERS}, got "${value}"`,
    );
  return count;
}
