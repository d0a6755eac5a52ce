import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { cpus } from 'node:os';
import path from 'node:path';

/**
 * Starts a Node script pinned to one core, or allowed on every core with `'all'` (the driver runs
 * pinned, and a child inherits its pinning unless told otherwise; `cpus()` counts every core, the
 * affinity aside), and resolves once a line of its output matches. With `stdoutFile`, its output
 * goes to that file instead of a pipe, and the file is read for the line.
 */
export async function startPinned(options: {
  core: number | 'all';
  script: string;
  env: Record<string, string>;
  ready: RegExp;
  stdoutFile?: string;
}): Promise<{ child: ChildProcess; match: RegExpExecArray }> {
  const cores = options.core === 'all' ? `0-${cpus().length - 1}` : String(options.core);
  const output = options.stdoutFile === undefined ? 'pipe' : openSync(options.stdoutFile, 'w');
  const child = spawn('taskset', ['-c', cores, process.execPath, options.script], {
    env: { ...process.env, ...options.env },
    stdio: ['ignore', output, 'inherit'],
  });
  if (typeof output === 'number') closeSync(output);
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    let buffered = '';
    const exited = (code: number | null) =>
      reject(new Error(`${options.script} exited with ${code}: ${buffered}`));
    child.on('exit', exited);
    const found = (match: RegExpExecArray) => {
      child.off('exit', exited);
      resolve(match);
    };
    if (options.stdoutFile !== undefined) {
      const file = options.stdoutFile;
      const poll = setInterval(() => {
        buffered = readFileSync(file, 'utf8');
        const match = options.ready.exec(buffered);
        if (!match) return;
        clearInterval(poll);
        found(match);
      }, 20);
      child.on('exit', () => clearInterval(poll));
      return;
    }
    const read = (data: Buffer) => {
      buffered += data.toString();
      const match = options.ready.exec(buffered);
      if (!match) return;
      // Later output (one access log line per request) is read and dropped, not kept and searched.
      child.stdout?.off('data', read);
      child.stdout?.resume();
      found(match);
    };
    child.stdout?.on('data', read);
  });
  return { child, match };
}

/**
 * Starts the built gateway (`dist/main.js`) on a free loopback port, logging at `info` into
 * `logFile`, with `env` on top; resolves with its origin once it is ready. Its log goes to a file,
 * as a deployment's goes to a file or a collector that keeps up: through a pipe, the driver (busy
 * sending the load) read it late at times, and the lines waiting in the gateway outlived young
 * collections and brought on full ones that no deployment would see.
 */
export async function startGateway(options: {
  root: string;
  core: number | 'all';
  adminToken: string;
  env: Record<string, string>;
  logFile: string;
}): Promise<{ child: ChildProcess; origin: string }> {
  const { child, match } = await startPinned({
    core: options.core,
    script: path.join(options.root, 'dist/main.js'),
    env: {
      PORT: '0',
      HOST: '127.0.0.1',
      GATEWAY_ADMIN_TOKEN: options.adminToken,
      GATEWAY_LOG_LEVEL: 'info',
      ...options.env,
    },
    ready: /gateway ready on (http:\/\/[^"\s]+)/,
    stdoutFile: options.logFile,
  });
  return { child, origin: match[1]! };
}

/** Moves a running process (all its threads) to one core. */
export function pinTo(pid: number, core: number): void {
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(pid)], { stdio: 'ignore' });
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system) the process has used, in microseconds. */
export function cpuMicros(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / CLOCK_TICKS_PER_SECOND;
}

/** Resident memory and its peak, in bytes. */
export function memory(pid: number): { rss: number; peak: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const read = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0) * 1024;
  return { rss: read('VmRSS'), peak: read('VmHWM') };
}

/** The bench's fake upstream (`fast-upstream.ts`), on core 1 beside the load generator. */
export async function startFastUpstream(
  root: string,
  env: Record<string, string> = {},
): Promise<{ child: ChildProcess; origin: string }> {
  const { child, match } = await startPinned({
    core: 1,
    script: path.join(root, 'dist-bench/fast-upstream.js'),
    env: { PORT: '0', ...env },
    ready: /listening (\d+)/,
  });
  return { child, origin: `http://127.0.0.1:${match[1]}` };
}
