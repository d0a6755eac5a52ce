import autocannon from 'autocannon';
import { Pool } from 'undici';

export interface Target {
  name: 'direct' | 'bare proxy' | 'gateway';
  origin: string;
  /** `/v1/chat/completions` or `/v1/messages`: the bodies below are valid for both. */
  path: string;
  /** What the body names: the gateway routes by it, the bench upstream ignores it. */
  model: string;
  headers: Record<string, string>;
  /** More body members (a `prompt_cache_key`). */
  members?: Record<string, unknown>;
}

/** A request both OpenAI chat completions and Anthropic messages accept; the text steers the bench upstream. */
function requestBody(target: Target, text: string, stream: boolean): string {
  return JSON.stringify({
    model: target.model,
    max_tokens: 64,
    messages: [{ role: 'user', content: text }],
    ...(stream && { stream: true }),
    ...target.members,
  });
}

/** A POST of a JSON `body` to the target's path, through `pool`. */
function post(pool: Pool, target: Target, body: string) {
  return pool.request({
    path: target.path,
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body,
  });
}

/** Requests per second at saturation: many connections, each sending as fast as answers come. */
export async function saturate(
  target: Target,
  seconds: number,
): Promise<{ rps: number; requests: number; errors: number }> {
  const result = await autocannon({
    url: `${target.origin}${target.path}`,
    method: 'POST',
    headers: { ...target.headers, 'content-type': 'application/json' },
    body: requestBody(target, 'Hello, how are you?', false),
    connections: 64,
    duration: seconds,
  });
  return {
    rps: result.requests.average,
    requests: result.requests.total,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

/**
 * Latency percentiles, in milliseconds, at a fixed offered rate (requests start on schedule, not on
 * answers). A first second at the same rate on the same connections is not counted: a new pool's
 * first requests wait for connections to open, on every target alike, and were often a third or
 * more of the slowest hundredth of a ten-second phase.
 */
export async function fixedRate(
  target: Target,
  options: { rate: number; seconds: number },
): Promise<{ p50: number; p99: number; errors: number }> {
  const pool = new Pool(target.origin, { connections: 256, pipelining: 1 });
  const body = requestBody(target, 'Hello, how are you?', false);
  const send = async (): Promise<number | undefined> => {
    const sent = performance.now();
    try {
      const response = await post(pool, target, body);
      await response.body.arrayBuffer();
      return response.statusCode === 200 ? performance.now() - sent : undefined;
    } catch {
      return undefined;
    }
  };
  await onSchedule(send, { rate: options.rate, seconds: 1 });
  const results = await onSchedule(send, options);
  await pool.close();
  const latencies = results.filter((latency) => latency !== undefined).sort((a, b) => a - b);
  const at = (fraction: number) =>
    latencies[Math.min(latencies.length - 1, Math.floor(latencies.length * fraction))] ?? NaN;
  return { p50: at(0.5), p99: at(0.99), errors: results.length - latencies.length };
}

/** Starts `send` `rate` times a second for `seconds`, each on its schedule; resolves with every result. */
async function onSchedule<T>(
  send: () => Promise<T>,
  options: { rate: number; seconds: number },
): Promise<T[]> {
  const total = options.rate * options.seconds;
  const interval = 1000 / options.rate;
  const started = performance.now();
  const pending: Promise<T>[] = [];
  for (let index = 0; index < total; index += 1) {
    const wait = started + index * interval - performance.now();
    if (wait > 1) await new Promise((resolve) => setTimeout(resolve, wait));
    pending.push(send());
  }
  return Promise.all(pending);
}

/** Median time to the first body byte and to the end of a 100-chunk stream, in milliseconds. */
export async function streamTimes(
  target: Target,
  runs: number,
): Promise<{ firstByte: number; total: number }> {
  const pool = new Pool(target.origin, { connections: 1 });
  const firstBytes: number[] = [];
  const totals: number[] = [];
  const body = requestBody(target, 'Stream please', true);
  for (let run = 0; run < runs; run += 1) {
    const sent = performance.now();
    const response = await post(pool, target, body);
    let first = 0;
    for await (const _chunk of response.body) if (first === 0) first = performance.now() - sent;
    const total = performance.now() - sent;
    if (run >= 5) {
      firstBytes.push(first);
      totals.push(total);
    }
  }
  await pool.close();
  const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
  return { firstByte: median(firstBytes), total: median(totals) };
}

/**
 * Streams of 100 chunks (or `chunks`), each chunk paced 1 ms apart by the upstream, started at a
 * fixed rate (on schedule, not on answers). Counts the content chunks that reached the client, and
 * takes the median length of a stream (about 100 ms when the pacing reached the upstream).
 */
export async function pacedStreams(
  target: Target,
  options: { rate: number; seconds: number; chunks?: number },
): Promise<{ streams: number; chunks: number; errors: number; medianMs: number }> {
  const pool = new Pool(target.origin, { connections: 256 });
  const durations: number[] = [];
  const pace = options.chunks === undefined ? 'bench-pace' : `bench-pace-${options.chunks}`;
  const body = requestBody(target, `Stream slowly: ${pace}`, true);
  let streams = 0;
  let chunks = 0;
  let errors = 0;
  const send = async () => {
    const sent = performance.now();
    try {
      const response = await post(pool, target, body);
      const text = await response.body.text();
      if (response.statusCode !== 200) return void (errors += 1);
      durations.push(performance.now() - sent);
      streams += 1;
      chunks += text.split('\n\n').filter((event) => event.includes('"tok')).length;
    } catch {
      errors += 1;
    }
  };
  await onSchedule(send, options);
  await pool.close();
  durations.sort((a, b) => a - b);
  return { streams, chunks, errors, medianMs: durations[Math.floor(durations.length / 2)] ?? NaN };
}

/** Opens `count` streams that the upstream holds open after one chunk; resolves when all have their first chunk. */
export async function openHeldStreams(target: Target, count: number): Promise<{ close(): Promise<void> }> {
  const pool = new Pool(target.origin, { connections: count });
  const body = requestBody(target, 'bench-hold', true);
  const responses = await Promise.all(
    Array.from({ length: count }, async () => {
      const response = await post(pool, target, body);
      const iterator = response.body[Symbol.asyncIterator]();
      await iterator.next();
      return { response, iterator };
    }),
  );
  return {
    async close() {
      await Promise.all(
        responses.map(async ({ iterator }) => {
          for (;;) if ((await iterator.next()).done) break;
        }),
      );
      await pool.close();
    },
  };
}

/**
 * Runs each measurement `rounds` times, taking turns (first, second, third, then again), and keeps
 * each one's median round by `value`, with the errors of all its rounds. This machine's speed swings
 * over seconds to minutes; taken one after the other, one target could get a slow minute and the
 * next a fast one, and their ratio would say more about the machine than about them. Taking turns
 * spreads the swings over all of them.
 */
export async function inTurns<const Measurements extends readonly (() => Promise<{ errors: number }>)[]>(
  rounds: number,
  measurements: Measurements,
  value: (result: Awaited<ReturnType<Measurements[number]>>) => number,
): Promise<{ -readonly [Index in keyof Measurements]: Awaited<ReturnType<Measurements[Index]>> }> {
  type Result = Awaited<ReturnType<Measurements[number]>>;
  const results = measurements.map((): Result[] => []);
  for (let round = 0; round < rounds; round += 1) {
    for (const [index, measure] of measurements.entries()) results[index]!.push((await measure()) as Result);
  }
  const medians = results.map((taken) => {
    const sorted = [...taken].sort((a, b) => value(a) - value(b));
    const errors = taken.reduce((sum, result) => sum + result.errors, 0);
    return { ...sorted[Math.floor(sorted.length / 2)]!, errors };
  });
  return medians as { -readonly [Index in keyof Measurements]: Awaited<ReturnType<Measurements[Index]>> };
}
