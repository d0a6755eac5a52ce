import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Builds `dist/` the way `npm start` does. Test files run in parallel, so one builds while the
 * others wait on a lock directory; a lock left by a build that died is taken over after a while.
 */
export async function ensureGatewayBuilt(): Promise<void> {
  const dist = path.join(repositoryRoot, 'dist');
  const lock = path.join(repositoryRoot, '.build-lock');
  mkdirSync(dist, { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      const since = statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now();
      if (Date.now() - since > 120_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    execFileSync('npm', ['run', 'build', '--silent'], { cwd: repositoryRoot, stdio: 'ignore' });
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

export interface BuiltGateway {
  child: ChildProcessWithoutNullStreams;
  origin: string;
  /** Everything it printed on stdout so far, line by line. */
  lines: string[];
  /** Resolves with the exit code (or the signal's name). */
  exited: Promise<number | string | null>;
}

/**
 * Starts `dist/main.js` with only the given environment (and PATH), and Node's own `nodeArguments`
 * before the script, and waits for its ready line.
 */
export async function startBuiltGateway(
  env: Record<string, string>,
  nodeArguments: string[] = [],
): Promise<BuiltGateway> {
  const child = spawn(process.execPath, [...nodeArguments, 'dist/main.js'], {
    cwd: repositoryRoot,
    env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', ...env },
  });
  const lines: string[] = [];
  const exited = new Promise<number | string | null>((resolve) =>
    child.on('exit', (code, signal) => resolve(code ?? signal)),
  );
  const origin = await new Promise<string>((resolve, reject) => {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      buffered += chunk.toString();
      const parts = buffered.split('\n');
      buffered = parts.pop() ?? '';
      for (const line of parts) {
        lines.push(line);
        const ready = /gateway ready on (http:\/\/[^"\s]+)/.exec(line);
        if (ready?.[1]) resolve(ready[1]);
      }
    });
    child.stderr.resume();
    void exited.then((code) => reject(new Error(`gateway exited with ${code}: ${lines.join('\n')}`)));
    setTimeout(() => reject(new Error(`gateway not ready: ${lines.join('\n')}`)), 20_000);
  });
  return { child, origin, lines, exited };
}

/** SIGTERM, then the exit code. */
export async function stopBuiltGateway(started: BuiltGateway): Promise<number | string | null> {
  started.child.kill('SIGTERM');
  return started.exited;
}

/** SIGKILL: the process gets no chance to settle anything. */
export async function killBuiltGateway(started: BuiltGateway): Promise<void> {
  started.child.kill('SIGKILL');
  await started.exited;
}

/** A management API call with the given admin token; the parsed JSON reply. */
export async function adminCall(
  origin: string,
  token: string,
  method: string,
  route: string,
  body?: unknown,
): Promise<any> {
  const response = await fetch(`${origin}/api${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body !== undefined && { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
