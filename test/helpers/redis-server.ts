import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

/** Whether a `redis-server` binary is on the PATH (CI installs one). */
export const redisServerAvailable = spawnSync('redis-server', ['--version']).status === 0;

/** A Redis of the test's own on a free loopback port, without persistence, that the test may stop. */
export interface OwnRedis {
  url: string;
  stop(): Promise<void>;
  /** Starts it again on the same port (nothing when it runs). */
  start(): Promise<void>;
}

export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    // Already running: a second server on the same port would fail and hide the first from `stop`.
    if (child && child.exitCode === null && child.signalCode === null) return;
    const started = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'ignore'] },
    );
    child = started;
    await new Promise<void>((resolve, reject) => {
      let output = '';
      started.stdout?.on('data', (data: Buffer) => {
        output += data.toString();
        if (output.includes('Ready to accept connections')) resolve();
      });
      started.once('exit', (code) => reject(new Error(`redis-server exited with ${code}: ${output}`)));
    });
  };
  await start();
  return {
    url: `redis://127.0.0.1:${port}`,
    start,
    async stop() {
      const running = child;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGKILL');
      await exited;
    },
  };
}

/** A port nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
