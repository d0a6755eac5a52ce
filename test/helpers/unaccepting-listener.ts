import { spawn } from 'node:child_process';
import net from 'node:net';

export interface UnacceptingListener {
  /** `http://127.0.0.1:<port>`: connecting there never completes. */
  origin: string;
  close(): void;
}

/**
 * A loopback port whose connects never complete: a listening socket that never accepts, with its
 * accept queue filled, so the kernel drops every further handshake. Node accepts on its own, so the
 * listener is a small python3 process (python3 is needed for the native build anyway).
 */
export async function startUnacceptingListener(): Promise<UnacceptingListener> {
  const child = spawn('python3', [
    '-c',
    [
      'import socket, sys',
      's = socket.socket()',
      "s.bind(('127.0.0.1', 0))",
      's.listen(0)',
      'print(s.getsockname()[1], flush=True)',
      'sys.stdin.read()',
    ].join('\n'),
  ]);
  const port = await new Promise<number>((resolve, reject) => {
    child.stdout.once('data', (data: Buffer) => resolve(Number(String(data).trim())));
    child.once('error', reject);
  });
  const fillers = Array.from({ length: 3 }, () =>
    net.connect(port, '127.0.0.1').on('error', () => undefined),
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  return {
    origin: `http://127.0.0.1:${port}`,
    close() {
      for (const filler of fillers) filler.destroy();
      child.kill();
    },
  };
}
