import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { GatewayError } from '../../src/errors/gateway-error.js';
import { fetchFileData } from '../../src/files/fetch-file-data.js';
import { defaultLinkedFileLimits, fetchLinkedFiles } from '../../src/files/fetch-linked-files.js';
import type { FilePart } from '../../src/ir/content.js';
import type { CanonicalRequest } from '../../src/ir/request.js';
import { resolveLinkedFiles } from '../../src/relay/resolve-linked-files.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');

/** What the server saw: requests by path, the most at once, and when each connection closed. */
let seen: string[];
let inFlight: number;
let mostInFlight: number;
let closedAt: number[];
let server: Server;
let origin: string;

function handle(request: IncomingMessage, response: ServerResponse): void {
  const path = request.url ?? '/';
  seen.push(path);
  inFlight += 1;
  mostInFlight = Math.max(mostInFlight, inFlight);
  response.on('close', () => {
    inFlight -= 1;
    if (!response.writableFinished) closedAt.push(performance.now());
  });
  if (path.startsWith('/slow/')) return void setTimeout(() => response.end(PNG), 40);
  if (path.startsWith('/bytes/')) {
    const size = Number(path.split('/')[2]);
    return void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(size));
  }
  // Never answers; or answers with headers and part of the body, then goes silent.
  if (path.startsWith('/stall/')) return;
  if (path.startsWith('/stall-body/'))
    return void response.writeHead(200, { 'content-type': 'image/png' }).write(PNG);
  if (path.startsWith('/missing-late/')) return void setTimeout(() => response.writeHead(404).end(), 50);
  response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
}

beforeAll(async () => {
  server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
beforeEach(() => {
  seen = [];
  inFlight = 0;
  mostInFlight = 0;
  closedAt = [];
});

const options = { allowPrivate: true, maxBytes: 1024 * 1024, timeoutMs: 5000 };

function withLinks(links: string[]): CanonicalRequest {
  const file = (url: string): FilePart => ({
    type: 'file',
    mediaType: 'image/*',
    source: { kind: 'url', url },
  });
  return {
    model: 'm',
    system: [],
    messages: [
      {
        role: 'user',
        parts: [{ type: 'text', text: 'look' }, ...links.slice(1).map(file)],
      },
      {
        role: 'tool',
        parts: [{ type: 'tool-result', toolCallId: 'call_1', content: links.slice(0, 1).map(file) }],
      },
    ],
    tools: [],
    stream: false,
    extensions: {},
  };
}

async function fileError(work: Promise<unknown>): Promise<GatewayError> {
  const error = await work.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(GatewayError);
  return error as GatewayError;
}

test('the default limits: 100 files, 4 downloads at a time, 64 MiB in all', () => {
  expect(defaultLinkedFileLimits).toEqual({ maxFiles: 100, concurrency: 4, maxTotalBytes: 64 * 1024 * 1024 });
});

test('more than 100 linked files fail before any download; 100 are downloaded', async () => {
  const links = (count: number) =>
    Array.from({ length: count }, (_, index) => `${origin}/image-${index}.png`);
  const error = await fileError(resolveLinkedFiles(withLinks(links(101)), options));
  expect(error.status).toBe(500);
  expect(error.code).toBe('convert_request_failed');
  expect(error.message).toBe('get file data failed: too many linked files (limit 100)');
  expect(seen).toEqual([]);

  // The count is of places a link appears, even when the links repeat.
  const repeated = Array.from({ length: 101 }, () => `${origin}/image.png`);
  await expect(resolveLinkedFiles(withLinks(repeated), options)).rejects.toThrow(/too many linked files/);
  expect(seen).toEqual([]);

  const resolved = await resolveLinkedFiles(withLinks(links(100)), options);
  expect(seen).toHaveLength(100);
  expect(mostInFlight).toBeLessThanOrEqual(4);
  const inlined = [
    ...resolved.messages[0]!.parts.slice(1),
    ...(resolved.messages[1]!.parts[0] as { content: FilePart[] }).content,
  ];
  expect(inlined).toHaveLength(100);
  for (const part of inlined)
    expect(part).toEqual({
      type: 'file',
      mediaType: 'image/png',
      source: { kind: 'base64', data: PNG.toString('base64') },
    });
});

test('at most 4 downloads at a time, each distinct link once', async () => {
  const links = Array.from({ length: 12 }, (_, index) => `${origin}/slow/${index}.png`);
  const files = await fetchLinkedFiles([...links, ...links], options);
  expect(files.size).toBe(12);
  expect(seen).toHaveLength(12);
  expect(mostInFlight).toBe(4);
});

test('a total size cap across files, each place a file is inlined counted', async () => {
  const limits = { maxFiles: 100, concurrency: 4, maxTotalBytes: 10_000 };
  // Three files within the per-file cap, too big together.
  const error = await fileError(
    resolveLinkedFiles(withLinks([1, 2, 3].map((index) => `${origin}/bytes/4000/${index}`)), {
      ...options,
      limits,
    }),
  );
  expect(error.code).toBe('convert_request_failed');
  expect(error.message).toMatch(
    /^get file data failed: http:\/\/127\.0\.0\.1:\d+\/bytes\/4000\/\d: linked files larger than 10000 bytes in total$/,
  );

  // One file inlined three times is three copies in the upstream body.
  const once = `${origin}/bytes/4000/once`;
  await expect(resolveLinkedFiles(withLinks([once, once, once]), { ...options, limits })).rejects.toThrow(
    'linked files larger than 10000 bytes in total',
  );
  expect(await resolveLinkedFiles(withLinks([once, once]), { ...options, limits })).toBeDefined();

  // The per-file cap still applies below the total.
  await expect(
    resolveLinkedFiles(withLinks([`${origin}/bytes/6000/big`]), { ...options, maxBytes: 5000, limits }),
  ).rejects.toThrow('file larger than 5000 bytes');
});

test('the first failure cancels the downloads still in flight', async () => {
  const started = performance.now();
  // `withLinks` puts the first link last: the four others start, the first waits its turn.
  const links = ['queued', 'stall/1', 'stall/2', 'missing-late/3', 'stall/4'].map(
    (path) => `${origin}/${path}`,
  );
  const error = await fileError(resolveLinkedFiles(withLinks(links), options));
  expect(error.message).toMatch(
    /^get file data failed: http:\/\/127\.0\.0\.1:\d+\/missing-late\/3: HTTP 404$/,
  );
  expect(performance.now() - started).toBeLessThan(1000);
  await expect.poll(() => closedAt.length).toBe(3);
  expect(seen).not.toContain('/queued');
});

test('aborting the signal cancels every download in flight, without a file error', async () => {
  const client = new AbortController();
  const links = [1, 2, 3, 4, 5, 6].map((index) => `${origin}/${index % 2 ? 'stall' : 'stall-body'}/${index}`);
  const work = resolveLinkedFiles(withLinks(links), { ...options, cancellation: client });
  const failed = work.catch((caught: unknown) => caught);
  await expect.poll(() => seen.length).toBe(4);

  const reason = new Error('client closed the connection');
  const aborted = performance.now();
  client.abort(reason);
  // The request is over: its own reason comes back, never `get file data failed`.
  expect(await failed).toBe(reason);
  await expect.poll(() => closedAt.length, { timeout: 1000, interval: 10 }).toBe(4);
  for (const closed of closedAt) expect(closed - aborted).toBeLessThan(500);
  // Links still queued are never requested.
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(seen).toHaveLength(4);
});

test('an already aborted signal downloads nothing', async () => {
  const client = new AbortController();
  const reason = new Error('client closed the connection');
  client.abort(reason);
  await expect(
    resolveLinkedFiles(withLinks([`${origin}/image.png`]), { ...options, cancellation: client }),
  ).rejects.toBe(reason);
  await expect(fetchFileData(`${origin}/image.png`, { ...options, signal: client.signal })).rejects.toBe(
    reason,
  );
  expect(seen).toEqual([]);
});

test('one download cancelled mid-body closes its connection and rejects with the reason', async () => {
  const client = new AbortController();
  const download = fetchFileData(`${origin}/stall-body/single`, { ...options, signal: client.signal });
  const failed = download.catch((caught: unknown) => caught);
  await expect.poll(() => seen.length).toBe(1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  const reason = new Error('gone');
  client.abort(reason);
  expect(await failed).toBe(reason);
  await expect.poll(() => closedAt.length, { timeout: 500, interval: 10 }).toBe(1);
});

test("the cancellation's signal is taken only when there is a link to download", async () => {
  let taken = 0;
  const controller = new AbortController();
  const cancellation = {
    get signal() {
      taken += 1;
      return controller.signal;
    },
  };
  const request = withLinks([]);
  expect(await resolveLinkedFiles(request, { ...options, cancellation })).toBe(request);
  expect(taken).toBe(0);
  await resolveLinkedFiles(withLinks([`${origin}/image.png`]), { ...options, cancellation });
  expect(taken).toBe(1);
});
