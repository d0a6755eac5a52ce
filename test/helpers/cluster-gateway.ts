import { execFileSync } from 'node:child_process';
import http from 'node:http';

/**
 * Helpers for a gateway started with `GATEWAY_WORKERS` > 1. The primary hands each new connection
 * to the next worker in turn, so a request on a connection of its own lands on either worker; one
 * kept alive would stay on one worker.
 */
export interface Answer {
  status: number;
  text: string;
}

export function sendOnNewConnection(
  origin: string,
  options: { method?: string; path: string; token?: string; body?: unknown; signal?: AbortSignal },
): Promise<Answer> {
  const body = options.body === undefined ? undefined : JSON.stringify(options.body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${origin}${options.path}`,
      {
        method: options.method ?? (body === undefined ? 'GET' : 'POST'),
        agent: false,
        headers: {
          ...(options.token && { authorization: `Bearer ${options.token}` }),
          ...(body !== undefined && { 'content-type': 'application/json' }),
        },
        signal: options.signal,
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

/** The pids of a process's children (a cluster primary's workers), sorted. */
export function childPids(parent: number): number[] {
  let output = '';
  try {
    output = execFileSync('ps', ['--ppid', String(parent), '-o', 'pid='], { encoding: 'utf8' });
  } catch {
    // ps exits 1 when there is no child.
  }
  return output
    .split('\n')
    .map((line) => Number(line.trim()))
    .filter((pid) => pid > 0)
    .sort((a, b) => a - b);
}

/** Polls `read` until `done` holds for what it returns, or fails after `timeoutMs`. */
export async function waitFor<T>(
  read: () => T | Promise<T>,
  done: (value: T) => boolean,
  options: { timeoutMs: number; what: string },
): Promise<T> {
  const started = Date.now();
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() - started > options.timeoutMs)
      throw new Error(`${options.what}: not within ${options.timeoutMs} ms (last: ${JSON.stringify(value)})`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
