/**
 * `npm run bench:instructions`: user-space instructions per request, counted by valgrind's
 * callgrind, for the bare proxy and the gateway on the same calls. Counts move far less than
 * times from run to run, so a change of several percent shows in a few runs of each build. They
 * leave out the kernel's side (socket writes, SQLite's file writes), which `npm run bench` sees.
 *
 * Each target runs under valgrind with collection off while it warms up (the JIT compiles the hot
 * paths), then counts `BENCH_REQUESTS` requests sent one after the other, and then the cost of a
 * stream chunk: `BENCH_STREAMS` streams of 100 chunks less as many streams of one chunk, the upstream
 * writing a chunk every 5 ms (under valgrind a proxy needs about a millisecond for one, so each chunk
 * still arrives in a read of its own). Needs valgrind (Debian: `apt-get install valgrind`). Takes
 * about ten minutes.
 *
 * Two choices make counts repeat more closely (see the README for how closely): V8 runs
 * `--single-threaded`, so the JIT compiles on the main thread when a function is hot, not on a
 * helper thread that valgrind runs at its own pace (under valgrind, code waiting for its
 * optimised version ran unoptimised for longer or shorter from run to run, and the helper threads'
 * compiling was a third of the count); and requests go one at a time, so each commits alone
 * instead of in groups whose sizes follow the timing.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';
import { startFastUpstream } from './processes.js';
import { seedGateway } from './seed.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const requests = Number(process.env.BENCH_REQUESTS ?? 2000);
const warmUp = Number(process.env.BENCH_WARM_UP ?? 4000);
const streams = Number(process.env.BENCH_STREAMS ?? 20);
/** Far apart enough that a proxy under valgrind reads each chunk on its own. */
const PACE_MS = 5;
const CONCURRENCY = 1;
const ADMIN = 'bench-admin-token';
const BARE_PROXY_KEY = 'bench-bare-proxy-key';
const outputDirectory = mkdtempSync(path.join(tmpdir(), 'gateway-instructions-'));
// vgdb finds a process by a file named after $HOST; the gateway reads HOST too, so both get this one.
const HOST = '127.0.0.1';
const children: ChildProcess[] = [];
process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(outputDirectory, { recursive: true, force: true });
});

function startUnderCallgrind(name: string, script: string, env: Record<string, string>, ready: RegExp) {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${path.join(outputDirectory, `${name}.out`)}`,
      process.execPath,
      '--single-threaded',
      script,
    ],
    { env: { ...process.env, HOST, ...env }, stdio: ['ignore', 'pipe', 'ignore'] },
  );
  children.push(child);
  return new Promise<{ child: ChildProcess; origin: string }>((resolve, reject) => {
    let printed = '';
    const read = (data: Buffer) => {
      printed += data.toString();
      const found = ready.exec(printed);
      if (!found) return;
      child.stdout?.off('data', read);
      child.stdout?.resume();
      resolve({ child, origin: found[1]! });
    };
    child.stdout?.on('data', read);
    child.on('exit', (code) => reject(new Error(`${name} exited with ${code}: ${printed}`)));
  });
}

function callgrindControl(...args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const control = spawn('callgrind_control', args, { stdio: 'ignore', env: { ...process.env, HOST } });
    control.on('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`callgrind_control ${args}: ${code}`)),
    );
  });
}

async function send(origin: string, call: Call, count: number): Promise<void> {
  const pool = new Pool(origin, { connections: CONCURRENCY });
  const body = JSON.stringify({
    model: call.model,
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Hello, how are you?' }],
  });
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (sent < count) {
        sent += 1;
        const reply = await pool.request({
          path: call.path,
          method: 'POST',
          headers: { ...call.headers, 'content-type': 'application/json' },
          body,
        });
        await reply.body.arrayBuffer();
        if (reply.statusCode !== 200) throw new Error(`${call.path}: HTTP ${reply.statusCode}`);
      }
    }),
  );
  await pool.close();
}

interface Call {
  path: string;
  model: string;
  headers: Record<string, string>;
}

/** Sends `count` streams of `chunks` text chunks one after the other, each read to its end. */
async function sendStreams(origin: string, call: Call, count: number, chunks: number): Promise<void> {
  const pool = new Pool(origin, { connections: 1 });
  const body = JSON.stringify({
    model: call.model,
    max_tokens: 64,
    stream: true,
    messages: [{ role: 'user', content: `Stream slowly: bench-pace-${chunks}` }],
  });
  for (let sent = 0; sent < count; sent += 1) {
    const reply = await pool.request({
      path: call.path,
      method: 'POST',
      headers: { ...call.headers, 'content-type': 'application/json' },
      body,
    });
    await reply.body.text();
    if (reply.statusCode !== 200) throw new Error(`${call.path} stream: HTTP ${reply.statusCode}`);
  }
  await pool.close();
}

const dumpsOf = (name: string) =>
  readdirSync(outputDirectory).filter((file) => file.startsWith(`${name}.out.`));

/** The instructions one process runs while `work` runs, in thousands. */
async function countDuring(name: string, target: { child: ChildProcess }, work: () => Promise<void>) {
  const pid = String(target.child.pid);
  const earlier = new Set(dumpsOf(name));
  await callgrindControl('--instr=on', pid);
  await work();
  await callgrindControl('--instr=off', pid);
  await callgrindControl('--dump', pid);
  for (let waited = 0; waited < 60_000; waited += 500) {
    const totals = dumpsOf(name)
      .filter((file) => !earlier.has(file))
      .map((file) => /\ntotals: (\d+)/.exec(readFileSync(path.join(outputDirectory, file), 'utf8'))?.[1]);
    if (totals.length > 0 && totals.every((total) => total !== undefined))
      return totals.reduce((sum, total) => sum + Number(total), 0) / 1000;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`${name}: callgrind wrote no totals`);
}

/** Instructions per request of one process for one call, in thousands. */
async function countInstructions(name: string, target: { child: ChildProcess; origin: string }, call: Call) {
  await send(target.origin, call, warmUp);
  return (await countDuring(name, target, () => send(target.origin, call, requests))) / requests;
}

/**
 * Instructions per stream chunk, in thousands: streams of 100 chunks less streams of one, over the
 * 99 chunks between them, so that each stream's own work (the request, the money) drops out.
 */
async function countPerChunk(name: string, target: { child: ChildProcess; origin: string }, call: Call) {
  await sendStreams(target.origin, call, streams, 100);
  await sendStreams(target.origin, call, streams, 1);
  const long = await countDuring(name, target, () => sendStreams(target.origin, call, streams, 100));
  const short = await countDuring(name, target, () => sendStreams(target.origin, call, streams, 1));
  return (long - short) / streams / 99;
}

const upstream = await startFastUpstream(root, { BENCH_PACE_MS: String(PACE_MS) });
children.push(upstream.child);
const upstreamOrigin = upstream.origin;
const CHAT = { path: '/v1/chat/completions', model: 'bench-model' };
const MESSAGES = { path: '/v1/messages', model: 'bench-claude' };

const bareCalls = { chat: CHAT, messages: MESSAGES };
const bare: Record<string, number> = {};
const bareChunk: Record<string, number> = {};
for (const [label, call] of Object.entries(bareCalls)) {
  process.stderr.write(`bare proxy, ${label}\n`);
  const target = await startUnderCallgrind(
    `bare-${label}`,
    path.join(root, 'dist-bench/bare-proxy.js'),
    { PORT: '0', UPSTREAM: upstreamOrigin, UPSTREAM_KEY: 'upstream-key', BARE_PROXY_KEY },
    /bare proxy ready on (http:\/\/\S+)/,
  );
  const withKey = { ...call, headers: { authorization: `Bearer ${BARE_PROXY_KEY}` } };
  bare[label] = await countInstructions(`bare-${label}`, target, withKey);
  bareChunk[label] = await countPerChunk(`bare-${label}`, target, withKey);
  target.child.kill('SIGKILL');
}

const gatewayCalls = { chat: CHAT, messages: MESSAGES, converted: { ...CHAT, model: MESSAGES.model } };
const gateway: Record<string, number> = {};
const gatewayChunk: Record<string, number> = {};
for (const [label, call] of Object.entries(gatewayCalls)) {
  process.stderr.write(`gateway, ${label}\n`);
  const target = await startUnderCallgrind(
    `gateway-${label}`,
    path.join(root, 'dist/main.js'),
    {
      PORT: '0',
      GATEWAY_DATA_DIR: mkdtempSync(path.join(outputDirectory, 'data-')),
      GATEWAY_ADMIN_TOKEN: ADMIN,
      GATEWAY_LOG_LEVEL: 'info',
    },
    /gateway ready on (http:\/\/[^"\s]+)/,
  );
  const keys = await seedGateway(target.origin, upstreamOrigin, ADMIN);
  const withKey = { ...call, headers: { authorization: `Bearer ${keys.unlimited}` } };
  gateway[label] = await countInstructions(`gateway-${label}`, target, withKey);
  gatewayChunk[label] = await countPerChunk(`gateway-${label}`, target, withKey);
  target.child.kill('SIGKILL');
}

const ratio = (value: number, base: number) => (value / base).toFixed(2);
console.log(`thousands of instructions per request (${requests} requests after ${warmUp} to warm up)`);
console.log(
  `chat completions:        bare proxy ${bare.chat!.toFixed(0)}, gateway ${gateway.chat!.toFixed(0)}, ratio ${ratio(gateway.chat!, bare.chat!)}`,
);
console.log(
  `messages, relayed as is: bare proxy ${bare.messages!.toFixed(0)}, gateway ${gateway.messages!.toFixed(0)}, ratio ${ratio(gateway.messages!, bare.messages!)}`,
);
console.log(
  `chat on an Anthropic channel (converted): gateway ${gateway.converted!.toFixed(0)}, ratio to the bare proxy's chat ${ratio(gateway.converted!, bare.chat!)}`,
);
console.log(
  `per stream chunk (${streams} streams of 100 chunks less ${streams} of one, a chunk every ${PACE_MS} ms): ` +
    `chat bare proxy ${bareChunk.chat!.toFixed(1)}, gateway ${gatewayChunk.chat!.toFixed(1)}, ratio ${ratio(gatewayChunk.chat!, bareChunk.chat!)}; ` +
    `messages bare proxy ${bareChunk.messages!.toFixed(1)}, gateway ${gatewayChunk.messages!.toFixed(1)}, ratio ${ratio(gatewayChunk.messages!, bareChunk.messages!)}; ` +
    `converted gateway ${gatewayChunk.converted!.toFixed(1)}, ratio to the bare proxy's chat ${ratio(gatewayChunk.converted!, bareChunk.chat!)}`,
);
process.exit(0);
