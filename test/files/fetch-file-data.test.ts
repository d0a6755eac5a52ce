import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { fetchFileData } from '../../src/files/fetch-file-data.js';
import { isPublicAddress } from '../../src/files/is-public-address.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001', 'hex');
let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/image.png')
      return void response.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    if (request.url === '/redirect') return void response.writeHead(302, { location: '/image.png' }).end();
    if (request.url === '/big')
      return void response.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.alloc(5000));
    if (request.url === '/slow') return void setTimeout(() => response.end(PNG), 2000);
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const allowed = { allowPrivate: true, maxBytes: 1024, timeoutMs: 1000 };
const guarded = { allowPrivate: false, maxBytes: 1024, timeoutMs: 1000 };

test('downloads a file with its media type, following redirects', async () => {
  expect(await fetchFileData(`http://127.0.0.1:${port}/image.png`, allowed)).toEqual({
    mediaType: 'image/png',
    data: PNG.toString('base64'),
  });
  expect((await fetchFileData(`http://127.0.0.1:${port}/redirect`, allowed)).data).toBe(
    PNG.toString('base64'),
  );
});

test.each([
  ['a loopback literal', () => `http://127.0.0.1:${port}/image.png`, /127\.0\.0\.1 is not a public address/],
  ['an IPv6 loopback literal', () => `http://[::1]:${port}/image.png`, /::1 is not a public address/],
  ['a private literal', () => 'http://10.1.2.3/image.png', /10\.1\.2\.3 is not a public address/],
  [
    'a link-local literal',
    () => 'http://169.254.169.254/latest/meta-data',
    /169\.254\.169\.254 is not a public address/,
  ],
  [
    'a name that resolves to loopback',
    () => `http://localhost:${port}/image.png`,
    /localhost resolves to a non-public address/,
  ],
])('refuses %s unless private addresses are allowed', async (_name, link, reason) => {
  await expect(fetchFileData(link(), guarded)).rejects.toThrow(reason);
});

test('errors: status, size, time, scheme', async () => {
  await expect(fetchFileData(`http://127.0.0.1:${port}/missing`, allowed)).rejects.toThrow('HTTP 404');
  await expect(fetchFileData(`http://127.0.0.1:${port}/big`, allowed)).rejects.toThrow(
    'file larger than 1024 bytes',
  );
  await expect(
    fetchFileData(`http://127.0.0.1:${port}/slow`, { ...allowed, timeoutMs: 200 }),
  ).rejects.toThrow('timed out');
  await expect(fetchFileData('file:///etc/passwd', allowed)).rejects.toThrow('unsupported scheme file:');
  await expect(fetchFileData('not a url', allowed)).rejects.toThrow('invalid URL');
});

test('public and non-public addresses', () => {
  for (const address of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111'])
    expect(isPublicAddress(address)).toBe(true);
  for (const address of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.0.1',
    '192.168.1.1',
    '169.254.1.1',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fc00::1',
    '::ffff:127.0.0.1',
    '224.0.0.1',
    'nonsense',
  ]) {
    expect(isPublicAddress(address)).toBe(false);
  }
});
