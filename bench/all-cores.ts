import { execFileSync, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { saturate, type Target } from './measure.js';
import { cpuMicros, startGateway } from './processes.js';
import { round } from './report.js';
import type { SeededKeys } from './seed.js';

export interface AllCoresResult {
  workers: number;
  /** Requests per second of the whole machine at saturation, and per worker (one per core). */
  rps: number;
  rps_per_worker: number;
  /** CPU time of the primary and every worker, per request. */
  cpu_us_per_request: number;
  /** The same with a key limited by rpm, which the workers take from the primary in leases. */
  limited_key: { rps: number; cpu_us_per_request: number };
  /** Of the CPU per request, what the primary spent (connection hand-off, rate limit answers). */
  primary_cpu_us_per_request: { unlimited: number; limited: number };
  errors: number;
}

/** The pids of the primary's workers. */
function workerPids(primary: number): number[] {
  const output = execFileSync('ps', ['--ppid', String(primary), '-o', 'pid='], { encoding: 'utf8' });
  return output
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0);
}

/**
 * The gateway with `GATEWAY_WORKERS=auto`, free on every core, at saturation: once with a key
 * without limits, once with a limited key. The load generator and the upstream are not moved
 * off any core, so on a small machine they share the cores with the workers.
 */
export async function measureAllCores(options: {
  root: string;
  dataDir: string;
  adminToken: string;
  seconds: number;
  seed(origin: string): Promise<SeededKeys>;
  children: ChildProcess[];
}): Promise<AllCoresResult> {
  const started = await startGateway({
    root: options.root,
    core: 'all',
    adminToken: options.adminToken,
    env: { GATEWAY_DATA_DIR: options.dataDir, GATEWAY_WORKERS: 'auto' },
    logFile: path.join(options.dataDir, 'gateway.log'),
  });
  options.children.push(started.child);
  const primary = started.child.pid!;
  const { origin } = started;
  const keys = await options.seed(origin);
  const pids = [primary, ...workerPids(primary)];
  const target = (key: string): Target => ({
    name: 'gateway',
    origin,
    path: '/v1/chat/completions',
    model: 'bench-model',
    headers: { authorization: `Bearer ${key}` },
  });
  const cpu = () => pids.map((pid) => cpuMicros(pid));
  const run = async (key: string) => {
    const before = cpu();
    const result = await saturate(target(key), options.seconds);
    const after = cpu();
    const spent = after.map((value, index) => value - before[index]!);
    const total = spent.reduce((sum, value) => sum + value, 0);
    return {
      ...result,
      cpuPerRequest: total / result.requests,
      primaryCpuPerRequest: spent[0]! / result.requests,
    };
  };

  await saturate(target(keys.unlimited), 3);
  await saturate(target(keys.limited), 2);
  const unlimited = await run(keys.unlimited);
  const limited = await run(keys.limited);
  const workers = pids.length - 1;
  return {
    workers,
    rps: round(unlimited.rps, 0),
    rps_per_worker: round(unlimited.rps / workers, 0),
    cpu_us_per_request: round(unlimited.cpuPerRequest, 1),
    limited_key: { rps: round(limited.rps, 0), cpu_us_per_request: round(limited.cpuPerRequest, 1) },
    primary_cpu_us_per_request: {
      unlimited: round(unlimited.primaryCpuPerRequest, 1),
      limited: round(limited.primaryCpuPerRequest, 1),
    },
    errors: unlimited.errors + limited.errors,
  };
}
