/**
 * `npm run bench`: the same load, in one run, straight to a fast fake upstream and through the
 * gateway (pinned to core 0, with auth, billing and usage logging on); the driver and the upstream
 * share core 1. Prints a table with gateway-vs-direct ratios and writes bench/results/latest.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cpuMicros, memory, pinTo, startPinned } from './processes.js';
import { fixedRate, openHeldStreams, saturate, streamTimes, type Target } from './measure.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const openStreams = Number(process.env.BENCH_OPEN_STREAMS ?? 1000);
const ADMIN = 'bench-admin-token';

async function admin(origin: string, method: string, route: string, body: unknown): Promise<any> {
  const response = await fetch(`${origin}/api${route}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${await response.text()}`);
  return response.json();
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-bench-'));
const upstream = await startPinned({
  core: 1,
  script: path.join(root, 'dist-bench/fast-upstream.js'),
  env: { PORT: '0' },
  ready: /listening (\d+)/,
});
const upstreamOrigin = `http://127.0.0.1:${upstream.match[1]}`;
const gateway = await startPinned({
  core: 0,
  script: path.join(root, 'dist/main.js'),
  env: {
    PORT: '0',
    HOST: '127.0.0.1',
    GATEWAY_DATA_DIR: dataDir,
    GATEWAY_ADMIN_TOKEN: ADMIN,
    GATEWAY_LOG_LEVEL: 'info',
  },
  ready: /gateway ready on (http:\/\/[^"\s]+)/,
});
const gatewayOrigin = gateway.match[1]!;
const gatewayPid = gateway.child.pid!;

try {
  await admin(gatewayOrigin, 'POST', '/channels', {
    name: 'bench',
    type: 'openai',
    base_url: upstreamOrigin,
    keys: ['upstream-key'],
    models: ['bench-model'],
  });
  await admin(gatewayOrigin, 'PUT', '/prices/bench-model', { input: 1, output: 2 });
  const user = await admin(gatewayOrigin, 'POST', '/users', { username: 'bench', balance: 1_000_000 });
  const key = await admin(gatewayOrigin, 'POST', '/keys', { user_id: user.id });

  const direct: Target = {
    name: 'direct',
    origin: upstreamOrigin,
    headers: { authorization: 'Bearer upstream-key' },
  };
  const viaGateway: Target = {
    name: 'gateway',
    origin: gatewayOrigin,
    headers: { authorization: `Bearer ${key.key}` },
  };

  process.stderr.write('open streams\n');
  await streamTimes(viaGateway, 20);
  await new Promise((resolve) => setTimeout(resolve, 500));
  const baseline = memory(gatewayPid).rss;
  const held = await openHeldStreams(viaGateway, openStreams);
  const withStreams = memory(gatewayPid);
  await fetch(`${upstreamOrigin}/release`);
  await held.close();
  const perStream = (withStreams.rss - baseline) / openStreams;

  process.stderr.write('warming up\n');
  await saturate(viaGateway, 3);
  await saturate(direct, 2);

  process.stderr.write('saturation\n');
  const directSaturation = await saturate(direct, seconds);
  const cpuBefore = cpuMicros(gatewayPid);
  const gatewaySaturation = await saturate(viaGateway, seconds);
  const cpuPerRequest = (cpuMicros(gatewayPid) - cpuBefore) / gatewaySaturation.requests;

  process.stderr.write('fixed rate\n');
  const directRate = await fixedRate(direct, { rate: 1000, seconds });
  const gatewayRate = await fixedRate(viaGateway, { rate: 1000, seconds });

  process.stderr.write('streams\n');
  const directStream = await streamTimes(direct, 60);
  const gatewayStream = await streamTimes(viaGateway, 60);
  // The same on one core: an idle virtual CPU wakes slowly, and the pinned layout puts two
  // cross-core hops on the gateway's path that the direct path does not have.
  pinTo(gatewayPid, 1);
  const gatewayStreamSameCore = await streamTimes(viaGateway, 60);
  const directStreamSameCore = await streamTimes(direct, 60);
  pinTo(gatewayPid, 0);

  const ratio = (a: number, b: number) => Number((a / b).toFixed(3));
  const round = (value: number, digits = 2) => Number(value.toFixed(digits));
  const results = {
    machine: { cores: (await import('node:os')).cpus().length, node: process.version },
    seconds,
    saturation_rps: {
      direct: round(directSaturation.rps, 0),
      gateway: round(gatewaySaturation.rps, 0),
      ratio: ratio(gatewaySaturation.rps, directSaturation.rps),
      errors: directSaturation.errors + gatewaySaturation.errors,
    },
    gateway_cpu_us_per_request: round(cpuPerRequest, 1),
    latency_ms_at_1000_rps: {
      direct: { p50: round(directRate.p50, 3), p99: round(directRate.p99, 3) },
      gateway: { p50: round(gatewayRate.p50, 3), p99: round(gatewayRate.p99, 3) },
      added_p99: round(gatewayRate.p99 - directRate.p99, 3),
      p99_ratio: ratio(gatewayRate.p99, directRate.p99),
      errors: directRate.errors + gatewayRate.errors,
    },
    stream_100_chunks_ms: {
      direct: { first_byte: round(directStream.firstByte, 3), total: round(directStream.total, 3) },
      gateway: { first_byte: round(gatewayStream.firstByte, 3), total: round(gatewayStream.total, 3) },
      added_first_byte: round(gatewayStream.firstByte - directStream.firstByte, 3),
      total_ratio: ratio(gatewayStream.total, directStream.total),
      all_on_one_core: {
        direct: {
          first_byte: round(directStreamSameCore.firstByte, 3),
          total: round(directStreamSameCore.total, 3),
        },
        gateway: {
          first_byte: round(gatewayStreamSameCore.firstByte, 3),
          total: round(gatewayStreamSameCore.total, 3),
        },
        added_first_byte: round(gatewayStreamSameCore.firstByte - directStreamSameCore.firstByte, 3),
      },
    },
    open_streams: {
      count: openStreams,
      gateway_rss_mb_before: round(baseline / 2 ** 20, 1),
      gateway_rss_mb_with_streams: round(withStreams.rss / 2 ** 20, 1),
      gateway_peak_rss_mb: round(withStreams.peak / 2 ** 20, 1),
      kib_per_stream: round(perStream / 1024, 1),
    },
  };

  const rows: [string, string, string, string][] = [
    ['measure', 'direct', 'gateway', 'gateway / direct'],
    [
      'throughput at saturation (req/s)',
      `${results.saturation_rps.direct}`,
      `${results.saturation_rps.gateway}`,
      `${results.saturation_rps.ratio}`,
    ],
    [
      'p50 latency at 1000 req/s (ms)',
      `${results.latency_ms_at_1000_rps.direct.p50}`,
      `${results.latency_ms_at_1000_rps.gateway.p50}`,
      `${ratio(gatewayRate.p50, directRate.p50)}`,
    ],
    [
      'p99 latency at 1000 req/s (ms)',
      `${results.latency_ms_at_1000_rps.direct.p99}`,
      `${results.latency_ms_at_1000_rps.gateway.p99}`,
      `${results.latency_ms_at_1000_rps.p99_ratio}`,
    ],
    [
      'stream first byte (ms)',
      `${results.stream_100_chunks_ms.direct.first_byte}`,
      `${results.stream_100_chunks_ms.gateway.first_byte}`,
      `+${results.stream_100_chunks_ms.added_first_byte} ms`,
    ],
    [
      'stream first byte, all on one core (ms)',
      `${results.stream_100_chunks_ms.all_on_one_core.direct.first_byte}`,
      `${results.stream_100_chunks_ms.all_on_one_core.gateway.first_byte}`,
      `+${results.stream_100_chunks_ms.all_on_one_core.added_first_byte} ms`,
    ],
    [
      'stream of 100 chunks, total (ms)',
      `${results.stream_100_chunks_ms.direct.total}`,
      `${results.stream_100_chunks_ms.gateway.total}`,
      `${results.stream_100_chunks_ms.total_ratio}`,
    ],
    ['gateway CPU per request (µs)', '', `${results.gateway_cpu_us_per_request}`, ''],
    [`memory per open stream, ${openStreams} open (KiB)`, '', `${results.open_streams.kib_per_stream}`, ''],
  ];
  const widths = [0, 1, 2, 3].map((column) => Math.max(...rows.map((row) => row[column]!.length)));
  for (const row of rows)
    process.stdout.write(`${row.map((cell, column) => cell.padEnd(widths[column]!)).join('  ')}\n`);

  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write('written to bench/results/latest.json\n');
} finally {
  gateway.child.kill('SIGTERM');
  upstream.child.kill('SIGTERM');
  await new Promise((resolve) => gateway.child.once('exit', resolve));
  rmSync(dataDir, { recursive: true, force: true });
}
