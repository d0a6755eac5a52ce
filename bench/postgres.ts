import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import pg from 'pg';
import { inTurns, saturate, type Target } from './measure.js';
import { cpuMicros, startGateway } from './processes.js';
import { round } from './report.js';
import type { SeededKeys } from './seed.js';
import { variantFigures } from './variant-figures.js';

export interface PostgresResult {
  rps: number;
  /** The gateway's own CPU time per request. */
  cpu_us_per_request: number;
  /** The CPU time of every PostgreSQL server process on the machine, per request. */
  database_cpu_us_per_request: number;
  /** A key with a daily budget and a concurrency cap, against the key without. */
  budget_and_concurrency_cap: ReturnType<typeof variantFigures> & { database_cpu_us_per_request: number };
  errors: number;
}

/** CPU time of every PostgreSQL server process now running on this machine. */
function postgresCpuMicros(): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() !== 'postgres') continue;
      total += cpuMicros(Number(entry));
    } catch {
      // The process ended between the listing and the read.
    }
  }
  return total;
}

/**
 * The gateway on PostgreSQL (`BENCH_DATABASE_URL`, in a schema of its own, dropped afterwards),
 * pinned to core 0 like the gateway on SQLite, at saturation in `rounds` rounds (the median round).
 * The database server runs wherever the machine puts it, so its CPU time is reported beside the
 * gateway's.
 */
export async function measurePostgres(options: {
  root: string;
  databaseUrl: string;
  adminToken: string;
  /** Where the gateway's log goes. */
  logFile: string;
  seconds: number;
  rounds: number;
  seed(origin: string): Promise<SeededKeys>;
  children: ChildProcess[];
}): Promise<PostgresResult> {
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const started = await startGateway({
    root: options.root,
    core: 0,
    adminToken: options.adminToken,
    env: { DATABASE_URL: options.databaseUrl, DATABASE_SCHEMA: schema },
    logFile: options.logFile,
  });
  options.children.push(started.child);
  try {
    const keys = await options.seed(started.origin);
    const target: Target = {
      name: 'gateway',
      origin: started.origin,
      path: '/v1/chat/completions',
      model: 'bench-model',
      headers: { authorization: `Bearer ${keys.unlimited}` },
    };
    const budgeted: Target = { ...target, headers: { authorization: `Bearer ${keys.budgeted}` } };
    await saturate(target, 3);
    await saturate(budgeted, 2);
    const pid = started.child.pid!;
    const saturateOn = (on: Target) => async () => {
      const gatewayBefore = cpuMicros(pid);
      const databaseBefore = postgresCpuMicros();
      const saturation = await saturate(on, options.seconds);
      return {
        ...saturation,
        cpuPerRequest: (cpuMicros(pid) - gatewayBefore) / saturation.requests,
        databaseCpuPerRequest: (postgresCpuMicros() - databaseBefore) / saturation.requests,
      };
    };
    const [result, budgetedResult] = await inTurns(
      options.rounds,
      [saturateOn(target), saturateOn(budgeted)],
      (run) => run.rps,
    );
    return {
      rps: round(result.rps, 0),
      cpu_us_per_request: round(result.cpuPerRequest, 1),
      database_cpu_us_per_request: round(result.databaseCpuPerRequest, 1),
      budget_and_concurrency_cap: {
        ...variantFigures(result, budgetedResult),
        database_cpu_us_per_request: round(budgetedResult.databaseCpuPerRequest, 1),
      },
      errors: result.errors + budgetedResult.errors,
    };
  } finally {
    const { child } = started;
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
    }
    const client = new pg.Client({ connectionString: options.databaseUrl });
    await client.connect();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  }
}
