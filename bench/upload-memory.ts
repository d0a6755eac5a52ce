/**
 * `npm run bench:uploads`: the built gateway's memory while it relays ten 25 MB transcription
 * uploads at once. Each upload's file is spooled to disk as it arrives and streamed from there to
 * the upstream, so the gateway's peak resident memory should grow by a few MB at most, not by the
 * 250 MB the ten files weigh. Prints the gateway's resident memory before the uploads, its peak
 * (`VmHWM`) during them, and the difference, for `BENCH_UPLOADS` uploads of `BENCH_UPLOAD_MB` each:
 * a PCM WAV, or with `BENCH_UPLOAD_FILE` that file repeated to the size (an MP3's duration is read
 * by a parser in a worker thread, a WAV's on the spot).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { memory, startGateway } from './processes.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const uploads = Number(process.env.BENCH_UPLOADS ?? 10);
const megabytes = Number(process.env.BENCH_UPLOAD_MB ?? 25);
const sample = process.env.BENCH_UPLOAD_FILE;
const { silentWav } = (await import(path.join(root, 'dist/audio/silent-wav.js'))) as {
  silentWav: (milliseconds: number) => Buffer;
};
const ADMIN_TOKEN = 'bench-uploads-admin-token';

function repeated(bytes: Buffer, length: number): Buffer {
  const file = Buffer.alloc(length);
  for (let offset = 0; offset < length; offset += bytes.length) bytes.copy(file, offset);
  return file;
}

/** An upstream that reads each form to its end, slowly enough for the uploads to overlap, and answers. */
async function startUpstream(): Promise<{ origin: string; close: () => void; received: () => number }> {
  let received = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      received += chunk.length;
    });
    request.on('end', () => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ text: 'ok', usage: { type: 'duration', seconds: 1 } }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, close: () => server.close(), received: () => received };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-bench-uploads-'));
const upstream = await startUpstream();
const gateway = await startGateway({
  root,
  core: 'all',
  adminToken: ADMIN_TOKEN,
  env: { GATEWAY_DATA_DIR: dataDir },
  logFile: path.join(dataDir, 'gateway.log'),
});
try {
  const admin = async (method: string, route: string, body: unknown): Promise<any> => {
    const response = await fetch(`${gateway.origin}/api${route}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  await admin('POST', '/channels', {
    name: 'ears',
    type: 'openai',
    base_url: upstream.origin,
    keys: ['upstream-key'],
    models: ['whisper-1'],
    endpoints: ['audio-transcription'],
  });
  await admin('PUT', '/prices/whisper-1', { input: 0, output: 0, per_minute: 0.006 });
  const user = await admin('POST', '/users', { username: 'bench', balance: 1_000 });
  const { key } = await admin('POST', '/keys', { user_id: user.id });

  const bytes = megabytes * 1024 * 1024;
  // 16 kHz mono 16-bit: 32 bytes a millisecond.
  const file = sample ? repeated(readFileSync(sample), bytes) : silentWav(Math.floor(bytes / 32));
  const name = sample ? path.basename(sample) : 'long.wav';
  const upload = async () => {
    const form = new FormData();
    form.append('model', 'whisper-1');
    form.append('file', new Blob([file]), name);
    const response = await fetch(`${gateway.origin}/v1/audio/transcriptions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body: form,
    });
    if (!response.ok) throw new Error(`upload: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
  };
  // One upload first, so that what loads on first use (busboy, the duration worker) is loaded.
  await upload();
  const pid = gateway.child.pid!;
  // Resets the peak (`VmHWM`) to the present resident size (proc(5), clear_refs).
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
  const before = memory(pid);
  const started = performance.now();
  await Promise.all(Array.from({ length: uploads }, upload));
  const seconds = (performance.now() - started) / 1000;
  const after = memory(pid);
  const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
  console.log(`${uploads} concurrent uploads of ${megabytes} MB in ${seconds.toFixed(1)} s`);
  console.log(`upstream received ${mib(upstream.received())} MiB`);
  console.log(`gateway resident memory before: ${mib(before.rss)} MiB`);
  console.log(
    `gateway peak during the uploads: ${mib(after.peak)} MiB (+${mib(after.peak - before.rss)} MiB)`,
  );
} finally {
  gateway.child.kill('SIGTERM');
  upstream.close();
  rmSync(dataDir, { recursive: true, force: true });
}
