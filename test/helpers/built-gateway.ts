import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdirSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export const repositoryRoot = path.resolve(import.meta.dirname, '../..');

/** What `tsc -p tsconfig.build.json` reads: when none of it changed since the last build, dist is current. */
const SERVER_INPUTS = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package-lock.json'];

/** The newest modification time among `paths` (folders walked), in milliseconds. */
function newestModification(paths: readonly string[]): number {
  let newest = 0;
  for (const relative of paths) {
    const entry = path.join(repositoryRoot, relative);
    const stat = statSync(entry, { throwIfNoEntry: false });
    if (!stat) continue;
    newest = Math.max(newest, stat.mtimeMs);
    if (!stat.isDirectory()) continue;
    for (const child of readdirSync(entry, { recursive: true, withFileTypes: true })) {
      // Folders too: deleting a file changes only its folder's time.
      if (child.isFile() || child.isDirectory())
        newest = Math.max(newest, statSync(path.join(child.parentPath, child.name)).mtimeMs);
    }
  }
  return newest;
}

/**
 * Builds `dist/` the way `npm start` does. Test files run in parallel, so one builds while the
 * others wait on a lock directory; a lock left by a build that died is taken over after a while.
 * The server is compiled again only when its sources changed since the last build (a stamp file
 * says when that was): compiling rewrites every file of `dist/`, and a gateway another test file
 * starts (or restarts after a kill) meanwhile could read one half written.
 */
export async function ensureGatewayBuilt(): Promise<void> {
  const dist = path.join(repositoryRoot, 'dist');
  const lock = path.join(repositoryRoot, '.build-lock');
  const stamp = path.join(dist, '.build-stamp');
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
    const builtAt = statSync(stamp, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    if (newestModification(SERVER_INPUTS) >= builtAt) {
      const startedAt = new Date();
      execFileSync(
        process.execPath,
        [path.join(repositoryRoot, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.build.json'],
        {
          cwd: repositoryRoot,
          stdio: 'ignore',
        },
      );
      // Stamped with the time the compile began: a source saved during it is compiled next time.
      writeFileSync(stamp, '');
      utimesSync(stamp, startedAt, startedAt);
    }
    // Rebuilds the console only when its own sources changed, and swaps the result in whole.
    execFileSync(process.execPath, [path.join(repositoryRoot, 'console/scripts/build-if-changed.mjs')], {
      cwd: repositoryRoot,
      stdio: 'ignore',
    });
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
 * Starts `dist/main.js` (or another `script` that serves) with only the given environment (and
 * PATH), and Node's own `nodeArguments` before the script, and waits for its ready line.
 */
export async function startBuiltGateway(
  env: Record<string, string>,
  nodeArguments: string[] = [],
  script = 'dist/main.js',
): Promise<BuiltGateway> {
  const child = spawn(process.execPath, [...nodeArguments, script], {
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
        if (ready?.[1]) {
          clearTimeout(notReady);
          resolve(ready[1]);
        }
      }
    });
    child.stderr.resume();
    void exited.then((code) => reject(new Error(`gateway exited with ${code}: ${lines.join('\n')}`)));
    const notReady = setTimeout(() => {
      // Not left running past the test: a cluster primary would keep forking its workers.
      child.kill('SIGKILL');
      reject(new Error(`gateway not ready: ${lines.join('\n')}`));
    }, 20_000);
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
