/**
 * `npm run bench`: the same load, in one run, on three targets: straight to a fast fake upstream,
 * through a bare `node:http` + undici proxy, and through the gateway (with auth, billing and usage
 * logging on). Both proxies are pinned to core 0 and measured one after the other, never both under
 * load at once (the headline phases in turns: see `inTurns`); the driver and the upstream share
 * core 1. The bare proxy runs a second time with the gateway's money moves alone (`money-moves.ts`)
 * in the saturation phase: the floor the durable reservation and settlement set under the gateway's
 * CPU per request; and the gateway once more with a key that has a daily budget and a concurrency
 * cap (what spend limits cost a request, against the key without). Prints a table with the
 * gateway's ratios to the direct path and to the bare proxy, then
 * the same figures for Anthropic messages relayed as they are and for a chat client on an Anthropic
 * channel. Then the gateway runs again with `GATEWAY_WORKERS=auto` on every core, for its
 * throughput per machine and per core, and, with `BENCH_DATABASE_URL` set, once more on PostgreSQL
 * (last tables). Writes bench/results/latest.json.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ChildProcess } from 'node:child_process';
import { cpuMicros, memory, pinTo, startFastUpstream, startGateway, startPinned } from './processes.js';
import {
  fixedRate,
  inTurns,
  openHeldStreams,
  pacedStreams,
  saturate,
  streamTimes,
  type Target,
} from './measure.js';
import { compare, formatTable, round, row } from './report.js';
import { measureAllCores, type AllCoresResult } from './all-cores.js';
import { measurePostgres, type PostgresResult } from './postgres.js';
import { seedGateway, type SeededKeys } from './seed.js';
import { variantFigures } from './variant-figures.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
/** Rounds of the saturation and per-chunk phases, the targets taking turns (see `inTurns`). */
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const openStreams = Number(process.env.BENCH_OPEN_STREAMS ?? 1000);
/** When set, the chat saturation runs once more on a gateway using this PostgreSQL database. */
const postgresUrl = process.env.BENCH_DATABASE_URL;
const ADMIN = 'bench-admin-token';
const BARE_PROXY_KEY = 'bench-bare-proxy-key';
/** The per-chunk scenario: 100-chunk streams started at this rate, chunks this far apart. */
const PACED_STREAMS_PER_SECOND = 50;
/** Body members that make the request about 2 KB: a long instruction, as real prompts have. */
const LARGE_REQUEST = {
  user: 'Please review the following paragraph for clarity and tone before it is sent out. '.repeat(24),
};

/** The bench channels, prices, user and keys, on the bench upstream. */
const seed = (origin: string): Promise<SeededKeys> => seedGateway(origin, upstreamOrigin, ADMIN);

interface Proxy {
  target: Target;
  pid: number;
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-bench-'));
const allCoresDataDir = mkdtempSync(path.join(tmpdir(), 'gateway-bench-all-cores-'));
const children: ChildProcess[] = [];
const upstream = await startFastUpstream(root);
children.push(upstream.child);
const upstreamOrigin = upstream.origin;

try {
  const bareProxyProcess = await startPinned({
    core: 0,
    script: path.join(root, 'dist-bench/bare-proxy.js'),
    env: { PORT: '0', UPSTREAM: upstreamOrigin, UPSTREAM_KEY: 'upstream-key', BARE_PROXY_KEY },
    ready: /bare proxy ready on (http:\/\/\S+)/,
  });
  children.push(bareProxyProcess.child);
  const moneyMovesProcess = await startPinned({
    core: 0,
    script: path.join(root, 'dist-bench/bare-proxy.js'),
    env: {
      PORT: '0',
      UPSTREAM: upstreamOrigin,
      UPSTREAM_KEY: 'upstream-key',
      BARE_PROXY_KEY,
      BARE_PROXY_LEDGER_DIR: path.join(dataDir, 'money-moves'),
    },
    ready: /bare proxy ready on (http:\/\/\S+)/,
  });
  children.push(moneyMovesProcess.child);
  const gatewayProcess = await startGateway({
    root,
    core: 0,
    adminToken: ADMIN,
    env: { GATEWAY_DATA_DIR: dataDir },
    logFile: path.join(dataDir, 'gateway.log'),
  });
  children.push(gatewayProcess.child);
  const gatewayOrigin = gatewayProcess.origin;

  const keys = await seed(gatewayOrigin);

  const CHAT = { path: '/v1/chat/completions', model: 'bench-model' };
  const MESSAGES = { path: '/v1/messages', model: 'bench-claude' };
  const direct: Target = {
    name: 'direct',
    origin: upstreamOrigin,
    ...CHAT,
    headers: { authorization: 'Bearer upstream-key' },
  };
  const bareProxy: Proxy = {
    target: {
      name: 'bare proxy',
      origin: bareProxyProcess.match[1]!,
      ...CHAT,
      headers: { authorization: `Bearer ${BARE_PROXY_KEY}` },
    },
    pid: bareProxyProcess.child.pid!,
  };
  const moneyMoves: Proxy = {
    target: { ...bareProxy.target, origin: moneyMovesProcess.match[1]! },
    pid: moneyMovesProcess.child.pid!,
  };
  const gateway: Proxy = {
    target: {
      name: 'gateway',
      origin: gatewayOrigin,
      ...CHAT,
      headers: { authorization: `Bearer ${keys.unlimited}` },
    },
    pid: gatewayProcess.child.pid!,
  };
  /** The same gateway and key, asked for a virtual model of two targets served by the first. */
  const gatewayVirtual: Proxy = { target: { ...gateway.target, model: 'bench-virtual' }, pid: gateway.pid };
  /** The same request with a prompt-cache affinity key, one conversation throughout. */
  const gatewayAffinity: Proxy = {
    target: { ...gateway.target, members: { prompt_cache_key: 'bench-conversation' } },
    pid: gateway.pid,
  };
  /** The same request with a key of a group that one regex guardrail checks. */
  const gatewayGuarded: Proxy = {
    target: { ...gateway.target, headers: { authorization: `Bearer ${keys.guarded}` } },
    pid: gateway.pid,
  };
  /** The same gateway, called with a key whose bodies are stored. */
  const gatewayLogged: Proxy = {
    target: { ...gateway.target, headers: { authorization: `Bearer ${keys.logged}` } },
    pid: gateway.pid,
  };
  /** A request of about 2 KB, without and with its bodies stored. */
  const gatewayLarge: Proxy = { target: { ...gateway.target, members: LARGE_REQUEST }, pid: gateway.pid };
  const gatewayLargeLogged: Proxy = {
    target: { ...gatewayLogged.target, members: LARGE_REQUEST },
    pid: gateway.pid,
  };
  /** The same gateway, called with a key that has a daily budget and a concurrency cap. */
  const gatewayBudgeted: Proxy = {
    target: { ...gateway.target, headers: { authorization: `Bearer ${keys.budgeted}` } },
    pid: gateway.pid,
  };

  process.stderr.write('open streams\n');
  const heldMemory = async (proxy: Proxy) => {
    await streamTimes(proxy.target, 20);
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baseline = memory(proxy.pid).rss;
    const held = await openHeldStreams(proxy.target, openStreams);
    const withStreams = memory(proxy.pid);
    await fetch(`${upstreamOrigin}/release`);
    await held.close();
    return { baseline, withStreams, perStream: (withStreams.rss - baseline) / openStreams };
  };
  const bareProxyHeld = await heldMemory(bareProxy);
  const gatewayHeld = await heldMemory(gateway);
  const gatewayLoggedHeld = await heldMemory(gatewayLogged);

  process.stderr.write('warming up\n');
  await saturate(gateway.target, 3);
  await saturate(gatewayBudgeted.target, 2);
  await saturate(gatewayVirtual.target, 2);
  await saturate(gatewayAffinity.target, 2);
  await saturate(gatewayGuarded.target, 2);
  await saturate(gatewayLarge.target, 2);
  await saturate(gatewayLargeLogged.target, 2);
  await saturate(bareProxy.target, 2);
  await saturate(moneyMoves.target, 2);
  await saturate(direct, 2);

  process.stderr.write('saturation\n');
  const saturateProxy = async (proxy: Proxy) => {
    const before = cpuMicros(proxy.pid);
    const result = await saturate(proxy.target, seconds);
    return { ...result, cpuPerRequest: (cpuMicros(proxy.pid) - before) / result.requests };
  };
  const [
    directSaturation,
    bareProxySaturation,
    moneyMovesSaturation,
    gatewaySaturation,
    gatewayBudgetedSaturation,
    gatewayVirtualSaturation,
    gatewayAffinitySaturation,
    gatewayGuardedSaturation,
  ] = await inTurns(
    rounds,
    [
      () => saturate(direct, seconds),
      () => saturateProxy(bareProxy),
      () => saturateProxy(moneyMoves),
      () => saturateProxy(gateway),
      () => saturateProxy(gatewayBudgeted),
      () => saturateProxy(gatewayVirtual),
      () => saturateProxy(gatewayAffinity),
      () => saturateProxy(gatewayGuarded),
    ],
    (result) => result.rps,
  );
  // Apart from the rows above: the bodies it stores grow the database, and the writes of the
  // variants after it would carry that growth.
  const [gatewayLargeSaturation, gatewayLargeLoggedSaturation] = await inTurns(
    rounds,
    [() => saturateProxy(gatewayLarge), () => saturateProxy(gatewayLargeLogged)],
    (result) => result.rps,
  );

  process.stderr.write('fixed rate\n');
  const atRate = (target: Target) => () => fixedRate(target, { rate: 1000, seconds });
  const [directRate, bareProxyRate, gatewayRate] = await inTurns(
    rounds,
    [atRate(direct), atRate(bareProxy.target), atRate(gateway.target)],
    (result) => result.p99,
  );

  process.stderr.write('streams\n');
  const directStream = await streamTimes(direct, 60);
  const bareProxyStream = await streamTimes(bareProxy.target, 60);
  const gatewayStream = await streamTimes(gateway.target, 60);
  // The same on one core: an idle virtual CPU wakes slowly, and the pinned layout puts two
  // cross-core hops on a proxy's path that the direct path does not have.
  const onCoreOne = async (proxy: Proxy) => {
    pinTo(proxy.pid, 1);
    try {
      return await streamTimes(proxy.target, 60);
    } finally {
      pinTo(proxy.pid, 0);
    }
  };
  const directStreamSameCore = await streamTimes(direct, 60);
  const bareProxyStreamSameCore = await onCoreOne(bareProxy);
  const gatewayStreamSameCore = await onCoreOne(gateway);

  process.stderr.write('stream chunks\n');
  // Per chunk with each stream's share of the per-request work, and without it: the CPU of a
  // 100-chunk stream less that of a 1-chunk stream, over the 99 chunks between them.
  const chunkCost = async (proxy: Proxy) => {
    const before = cpuMicros(proxy.pid);
    const result = await pacedStreams(proxy.target, { rate: PACED_STREAMS_PER_SECOND, seconds });
    const between = cpuMicros(proxy.pid);
    const single = await pacedStreams(proxy.target, {
      rate: PACED_STREAMS_PER_SECOND,
      seconds: seconds / 2,
      chunks: 1,
    });
    const perStream = (between - before) / result.streams;
    const perSingleStream = (cpuMicros(proxy.pid) - between) / single.streams;
    return {
      ...result,
      errors: result.errors + single.errors,
      cpuPerChunk: (between - before) / result.chunks,
      cpuPerChunkRelayed:
        (perStream - perSingleStream) / (result.chunks / result.streams - single.chunks / single.streams),
    };
  };
  const [bareProxyChunks, gatewayChunks, gatewayLoggedChunks] = await inTurns(
    rounds,
    [() => chunkCost(bareProxy), () => chunkCost(gateway), () => chunkCost(gatewayLogged)],
    (result) => result.cpuPerChunk,
  );

  // The other two paths a client takes: Anthropic messages relayed as they are (against the same
  // call direct and through the bare proxy), and a chat client on an Anthropic channel, converted
  // both ways (against the chat figures above: what conversion adds).
  process.stderr.write('messages, passthrough and converted\n');
  const onMessages = (proxy: Proxy): Proxy => ({ ...proxy, target: { ...proxy.target, ...MESSAGES } });
  const otherPath = async (proxy: Proxy) => {
    await saturate(proxy.target, 2);
    const saturation = await saturateProxy(proxy);
    const rate = await fixedRate(proxy.target, { rate: 1000, seconds });
    const stream = await streamTimes(proxy.target, 60);
    const chunks = await chunkCost(proxy);
    return { saturation, rate, stream, chunks };
  };
  await saturate({ ...direct, ...MESSAGES }, 2);
  const directMessages = {
    saturation: await saturate({ ...direct, ...MESSAGES }, seconds),
    rate: await fixedRate({ ...direct, ...MESSAGES }, { rate: 1000, seconds }),
    stream: await streamTimes({ ...direct, ...MESSAGES }, 60),
  };
  const bareProxyMessages = await otherPath(onMessages(bareProxy));
  const gatewayMessages = await otherPath(onMessages(gateway));
  const gatewayConverted = await otherPath({
    ...gateway,
    target: { ...gateway.target, model: MESSAGES.model },
  });

  process.stderr.write('all cores\n');
  gatewayProcess.child.kill('SIGTERM');
  const allCores = await measureAllCores({
    root,
    dataDir: allCoresDataDir,
    adminToken: ADMIN,
    seconds,
    seed,
    children,
  });

  let postgres: PostgresResult | undefined;
  if (postgresUrl) {
    process.stderr.write('postgres\n');
    postgres = await measurePostgres({
      root,
      databaseUrl: postgresUrl,
      adminToken: ADMIN,
      logFile: path.join(dataDir, 'postgres-gateway.log'),
      seconds,
      rounds,
      seed,
      children,
    });
  }

  const mb = (bytes: number) => round(bytes / 2 ** 20, 1);
  type StreamTimes = Record<'direct' | 'bareProxy' | 'gateway', { firstByte: number; total: number }>;
  const timesOf = (measure: 'firstByte' | 'total', values: StreamTimes) =>
    compare(
      {
        direct: values.direct[measure],
        bareProxy: values.bareProxy[measure],
        gateway: values.gateway[measure],
      },
      { digits: 3, added: true },
    );
  const streams: StreamTimes = { direct: directStream, bareProxy: bareProxyStream, gateway: gatewayStream };
  const streamsSameCore: StreamTimes = {
    direct: directStreamSameCore,
    bareProxy: bareProxyStreamSameCore,
    gateway: gatewayStreamSameCore,
  };
  const results = {
    machine: { cores: cpus().length, node: process.version },
    seconds,
    saturation_rps: {
      ...compare(
        { direct: directSaturation.rps, bareProxy: bareProxySaturation.rps, gateway: gatewaySaturation.rps },
        { digits: 0 },
      ),
      errors: directSaturation.errors + bareProxySaturation.errors + gatewaySaturation.errors,
    },
    cpu_us_per_request: compare(
      { bareProxy: bareProxySaturation.cpuPerRequest, gateway: gatewaySaturation.cpuPerRequest },
      { digits: 1 },
    ),
    // The bare proxy with the money moves alone: what the durability rule costs before anything else.
    money_moves_floor: {
      rps: round(moneyMovesSaturation.rps, 0),
      cpu_us_per_request: round(moneyMovesSaturation.cpuPerRequest, 1),
      vs_bare_proxy: {
        rps: round(moneyMovesSaturation.rps / bareProxySaturation.rps, 3),
        cpu: round(moneyMovesSaturation.cpuPerRequest / bareProxySaturation.cpuPerRequest, 3),
      },
      gateway_vs_it: {
        rps: round(gatewaySaturation.rps / moneyMovesSaturation.rps, 3),
        cpu: round(gatewaySaturation.cpuPerRequest / moneyMovesSaturation.cpuPerRequest, 3),
      },
      errors: moneyMovesSaturation.errors,
    },
    // A key with one daily budget and a concurrency cap, against the same gateway's key without limits.
    budget_and_concurrency_cap: variantFigures(gatewaySaturation, gatewayBudgetedSaturation),
    // A virtual model of two targets, served by the plain model of the row above it.
    virtual_model: variantFigures(gatewaySaturation, gatewayVirtualSaturation),
    // The plain request with a prompt-cache affinity key: its sticky choice looked up and renewed.
    affinity_key: variantFigures(gatewaySaturation, gatewayAffinitySaturation),
    // The plain request read by one regex guardrail before its reservation.
    regex_guardrail: variantFigures(gatewaySaturation, gatewayGuardedSaturation),
    // Bodies stored (admin-api section 12): a 2 KB request against the same request unstored, and
    // 100-chunk streams and open streams against the plain key's.
    logged_bodies: {
      request_2kb: variantFigures(gatewayLargeSaturation, gatewayLargeLoggedSaturation),
      stream_100_chunks: {
        cpu_us_per_chunk: round(gatewayLoggedChunks.cpuPerChunk, 2),
        vs_without: round(gatewayLoggedChunks.cpuPerChunk / gatewayChunks.cpuPerChunk, 3),
        errors: gatewayLoggedChunks.errors,
      },
      open_streams: {
        kib_per_stream: round(gatewayLoggedHeld.perStream / 1024, 1),
        vs_without: round(gatewayLoggedHeld.perStream / gatewayHeld.perStream, 3),
      },
    },
    latency_ms_at_1000_rps: {
      p50: compare(
        { direct: directRate.p50, bareProxy: bareProxyRate.p50, gateway: gatewayRate.p50 },
        { digits: 3, added: true },
      ),
      p99: compare(
        { direct: directRate.p99, bareProxy: bareProxyRate.p99, gateway: gatewayRate.p99 },
        { digits: 3, added: true },
      ),
      errors: directRate.errors + bareProxyRate.errors + gatewayRate.errors,
    },
    stream_100_chunks_ms: {
      first_byte: timesOf('firstByte', streams),
      total: timesOf('total', streams),
      all_on_one_core: {
        first_byte: timesOf('firstByte', streamsSameCore),
        total: timesOf('total', streamsSameCore),
      },
    },
    cpu_us_per_stream_chunk: {
      ...compare(
        { bareProxy: bareProxyChunks.cpuPerChunk, gateway: gatewayChunks.cpuPerChunk },
        { digits: 2 },
      ),
      streams_per_second: PACED_STREAMS_PER_SECOND,
      chunk_interval_ms: 1,
      per_stream_work_taken_out: compare(
        { bareProxy: bareProxyChunks.cpuPerChunkRelayed, gateway: gatewayChunks.cpuPerChunkRelayed },
        { digits: 2 },
      ),
      chunks_relayed: { bare_proxy: bareProxyChunks.chunks, gateway: gatewayChunks.chunks },
      median_stream_ms: {
        bare_proxy: round(bareProxyChunks.medianMs, 1),
        gateway: round(gatewayChunks.medianMs, 1),
      },
      errors: bareProxyChunks.errors + gatewayChunks.errors,
    },
    messages_passthrough: pathFigures(directMessages, bareProxyMessages, gatewayMessages),
    chat_client_on_anthropic_channel: pathFigures(
      { saturation: directSaturation, rate: directRate, stream: directStream },
      {
        saturation: bareProxySaturation,
        rate: bareProxyRate,
        stream: bareProxyStream,
        chunks: bareProxyChunks,
      },
      gatewayConverted,
    ),
    all_cores: {
      one_core_rps: round(gatewaySaturation.rps, 0),
      ...allCores,
      rps_vs_one_core: round(allCores.rps / gatewaySaturation.rps, 2),
      rps_vs_cores_times_one_core: round(allCores.rps / (allCores.workers * gatewaySaturation.rps), 2),
      // On a machine as small as the bench's, the load generator and the upstream share the cores
      // with the workers: what the gateway got of the machine, and what it made of each CPU-second.
      machine_cpu_share: round((allCores.rps * allCores.cpu_us_per_request) / (allCores.workers * 1e6), 2),
      requests_per_cpu_second: {
        one_core: round(1e6 / gatewaySaturation.cpuPerRequest, 0),
        all_cores: round(1e6 / allCores.cpu_us_per_request, 0),
      },
    },
    ...(postgres && {
      postgres: { ...postgres, rps_vs_sqlite: round(postgres.rps / gatewaySaturation.rps, 2) },
    }),
    open_streams: {
      count: openStreams,
      kib_per_stream: compare(
        { bareProxy: bareProxyHeld.perStream / 1024, gateway: gatewayHeld.perStream / 1024 },
        { digits: 1 },
      ),
      rss_mb_before: { bare_proxy: mb(bareProxyHeld.baseline), gateway: mb(gatewayHeld.baseline) },
      rss_mb_with_streams: {
        bare_proxy: mb(bareProxyHeld.withStreams.rss),
        gateway: mb(gatewayHeld.withStreams.rss),
      },
      peak_rss_mb: {
        bare_proxy: mb(bareProxyHeld.withStreams.peak),
        gateway: mb(gatewayHeld.withStreams.peak),
      },
    },
  };

  const table = formatTable([
    row('throughput at saturation (req/s)', results.saturation_rps),
    row('p50 latency at 1000 req/s (ms)', results.latency_ms_at_1000_rps.p50),
    row('p99 latency at 1000 req/s (ms)', results.latency_ms_at_1000_rps.p99),
    row('stream first byte (ms)', results.stream_100_chunks_ms.first_byte),
    row('stream first byte, all on one core (ms)', results.stream_100_chunks_ms.all_on_one_core.first_byte),
    row('stream of 100 chunks, total (ms)', results.stream_100_chunks_ms.total),
    row('stream of 100 chunks, all on one core (ms)', results.stream_100_chunks_ms.all_on_one_core.total),
    row('CPU per request (µs)', results.cpu_us_per_request),
    row(`CPU per stream chunk, ${PACED_STREAMS_PER_SECOND} streams/s (µs)`, results.cpu_us_per_stream_chunk),
    row(
      'the same, per-stream work taken out (µs)',
      results.cpu_us_per_stream_chunk.per_stream_work_taken_out,
    ),
    row(`memory per open stream, ${openStreams} open (KiB)`, results.open_streams.kib_per_stream),
  ]);
  process.stdout.write(`${table}\n${formatMoneyMovesFloor(results.money_moves_floor)}\n\n`);
  process.stdout.write(
    `${formatSpendLimits([['on SQLite', results.budget_and_concurrency_cap], ...(postgres ? [['on PostgreSQL', postgres.budget_and_concurrency_cap] as const] : [])])}\n\n`,
  );
  for (const [title, figures] of [
    ['a virtual model of two targets', results.virtual_model],
    ['a request with an affinity key', results.affinity_key],
    ['a request one regex guardrail reads', results.regex_guardrail],
    ['a 2 KB request with its bodies stored (against the same unstored)', results.logged_bodies.request_2kb],
  ] as const) {
    process.stdout.write(
      `${formatTable(
        [
          ['throughput at saturation (req/s)', `${figures.rps}`, `${figures.vs_without.rps}`],
          ['CPU per request (µs)', `${figures.cpu_us_per_request}`, `${figures.vs_without.cpu}`],
        ],
        [title, 'value', '/ the plain request'],
      )}\n\n`,
    );
  }
  const { stream_100_chunks: loggedStream, open_streams: loggedHeld } = results.logged_bodies;
  process.stdout.write(
    `${formatTable(
      [
        [
          `CPU per stream chunk, ${PACED_STREAMS_PER_SECOND} streams/s (µs)`,
          `${loggedStream.cpu_us_per_chunk}`,
          `${loggedStream.vs_without}`,
        ],
        [
          `memory per open stream, ${openStreams} open (KiB)`,
          `${loggedHeld.kib_per_stream}`,
          `${loggedHeld.vs_without}`,
        ],
      ],
      ['streams with their bodies stored', 'value', '/ the plain key'],
    )}\n\n`,
  );
  for (const [title, figures] of [
    ['Anthropic messages, relayed as they are', results.messages_passthrough],
    [
      'a chat client on an Anthropic channel, converted (direct and bare proxy: the chat call)',
      results.chat_client_on_anthropic_channel,
    ],
  ] as const) {
    const pathTable = formatTable([
      row('throughput at saturation (req/s)', figures.saturation_rps),
      row('p50 latency at 1000 req/s (ms)', figures.p50_ms),
      row('p99 latency at 1000 req/s (ms)', figures.p99_ms),
      row('stream first byte (ms)', figures.stream_first_byte_ms),
      row('CPU per request (µs)', figures.cpu_us_per_request),
      row(
        `CPU per stream chunk, ${PACED_STREAMS_PER_SECOND} streams/s (µs)`,
        figures.cpu_us_per_stream_chunk,
      ),
      row('the same, per-stream work taken out (µs)', figures.cpu_us_per_stream_chunk_relayed),
    ]);
    process.stdout.write(`${title}\n${pathTable}\n\n`);
  }
  process.stdout.write(`${formatAllCores(results.all_cores, round(gatewaySaturation.cpuPerRequest, 1))}\n`);
  if (postgres) process.stdout.write(`\n${formatPostgres(postgres, gatewaySaturation)}\n`);
  const errors =
    results.saturation_rps.errors +
    results.money_moves_floor.errors +
    results.budget_and_concurrency_cap.errors +
    results.virtual_model.errors +
    results.affinity_key.errors +
    results.regex_guardrail.errors +
    results.logged_bodies.request_2kb.errors +
    results.logged_bodies.stream_100_chunks.errors +
    results.latency_ms_at_1000_rps.errors +
    results.cpu_us_per_stream_chunk.errors +
    results.messages_passthrough.errors +
    results.chat_client_on_anthropic_channel.errors +
    results.all_cores.errors +
    (postgres?.errors ?? 0);
  if (errors > 0) process.stdout.write(`errors: ${errors} (see latest.json)\n`);

  mkdirSync(path.join(root, 'bench/results'), { recursive: true });
  writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  process.stdout.write('written to bench/results/latest.json\n');
} finally {
  for (const child of children) child.kill('SIGTERM');
  await Promise.all(
    children.map((child) =>
      child.exitCode === null && child.signalCode === null
        ? new Promise((resolve) => child.once('exit', resolve))
        : undefined,
    ),
  );
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(allCoresDataDir, { recursive: true, force: true });
}

interface PathRun {
  saturation: { rps: number; errors: number; cpuPerRequest?: number };
  rate: { p50: number; p99: number; errors: number };
  stream: { firstByte: number };
  chunks?: { cpuPerChunk: number; cpuPerChunkRelayed: number; errors: number };
}

/** One path's figures on the three targets (the direct path has no CPU of its own to measure). */
function pathFigures(direct: PathRun, bareProxy: Required<PathRun>, gateway: Required<PathRun>) {
  const of = (pick: (run: PathRun) => number) => ({
    direct: pick(direct),
    bareProxy: pick(bareProxy),
    gateway: pick(gateway),
  });
  const cpu = (pick: (run: Required<PathRun>) => number) => ({
    bareProxy: pick(bareProxy),
    gateway: pick(gateway),
  });
  return {
    saturation_rps: compare(
      of((run) => run.saturation.rps),
      { digits: 0 },
    ),
    p50_ms: compare(
      of((run) => run.rate.p50),
      { digits: 3, added: true },
    ),
    p99_ms: compare(
      of((run) => run.rate.p99),
      { digits: 3, added: true },
    ),
    stream_first_byte_ms: compare(
      of((run) => run.stream.firstByte),
      { digits: 3, added: true },
    ),
    cpu_us_per_request: compare(
      cpu((run) => run.saturation.cpuPerRequest ?? NaN),
      { digits: 1 },
    ),
    cpu_us_per_stream_chunk: compare(
      cpu((run) => run.chunks.cpuPerChunk),
      { digits: 2 },
    ),
    cpu_us_per_stream_chunk_relayed: compare(
      cpu((run) => run.chunks.cpuPerChunkRelayed),
      { digits: 2 },
    ),
    errors: [direct, bareProxy, gateway].reduce(
      (sum, run) => sum + run.saturation.errors + run.rate.errors + (run.chunks?.errors ?? 0),
      0,
    ),
  };
}

function formatSpendLimits(runs: (readonly [string, ReturnType<typeof variantFigures>])[]): string {
  return formatTable(
    runs.flatMap(([where, figures]) => [
      [`throughput at saturation (req/s), ${where}`, `${figures.rps}`, `${figures.vs_without.rps}`],
      [`CPU per request (µs), ${where}`, `${figures.cpu_us_per_request}`, `${figures.vs_without.cpu}`],
    ]),
    ['key with a daily budget and max_concurrency', 'value', '/ key without'],
  );
}

function formatAllCores(
  figures: AllCoresResult & {
    one_core_rps: number;
    rps_vs_cores_times_one_core: number;
    machine_cpu_share: number;
    requests_per_cpu_second: { one_core: number; all_cores: number };
  },
  oneCoreCpuPerRequest: number,
): string {
  return formatTable(
    [
      ['throughput at saturation (req/s)', `${figures.one_core_rps}`, `${figures.rps}`],
      ['throughput per core (req/s)', `${figures.one_core_rps}`, `${figures.rps_per_worker}`],
      ['  of cores x one core', '', `${figures.rps_vs_cores_times_one_core}`],
      ["share of the machine's CPU the gateway had", '', `${figures.machine_cpu_share}`],
      [
        'requests per CPU-second of the gateway',
        `${figures.requests_per_cpu_second.one_core}`,
        `${figures.requests_per_cpu_second.all_cores}`,
      ],
      ['CPU per request, all processes (µs)', `${oneCoreCpuPerRequest}`, `${figures.cpu_us_per_request}`],
      ['  of which the primary (µs)', '', `${figures.primary_cpu_us_per_request.unlimited}`],
      ['throughput, key with an rpm limit (req/s)', '', `${figures.limited_key.rps}`],
      ['CPU per request, key with an rpm limit (µs)', '', `${figures.limited_key.cpu_us_per_request}`],
      ['  of which the primary (µs)', '', `${figures.primary_cpu_us_per_request.limited}`],
    ],
    ['measure', 'one core (1 process)', `all cores (${figures.workers} workers)`],
  );
}

function formatPostgres(figures: PostgresResult, sqlite: { rps: number; cpuPerRequest: number }): string {
  return formatTable(
    [
      ['throughput at saturation (req/s)', `${round(sqlite.rps, 0)}`, `${figures.rps}`],
      ['CPU per request, gateway (µs)', `${round(sqlite.cpuPerRequest, 1)}`, `${figures.cpu_us_per_request}`],
      ['CPU per request, database server (µs)', '', `${figures.database_cpu_us_per_request}`],
    ],
    ['chat completions, one core', 'on SQLite', 'on PostgreSQL'],
  );
}

function formatMoneyMovesFloor(figures: {
  rps: number;
  cpu_us_per_request: number;
  vs_bare_proxy: { rps: number; cpu: number };
  gateway_vs_it: { rps: number; cpu: number };
}): string {
  return formatTable(
    [
      [
        'throughput at saturation (req/s)',
        `${figures.rps}`,
        `${figures.vs_bare_proxy.rps}`,
        `${figures.gateway_vs_it.rps}`,
      ],
      [
        'CPU per request (µs)',
        `${figures.cpu_us_per_request}`,
        `${figures.vs_bare_proxy.cpu}`,
        `${figures.gateway_vs_it.cpu}`,
      ],
    ],
    ['bare proxy with the money moves alone', 'value', '/ bare proxy', 'gateway / it'],
  );
}
