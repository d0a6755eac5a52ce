import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConsolePageSource } from '../../src/http/console/console-page-source.js';
import { pickContentEncoding } from '../../src/http/console/pick-content-encoding.js';
import { loadConsolePage } from '../../src/http/console-page.js';
import { registerConsoleRoutes, sendConsolePage } from '../../src/http/routes/console-routes.js';

/** Serving the built web console: hashed assets cached for good, the page revalidated, a strict CSP. */

let directory: string;
let app: FastifyInstance;
const script = 'console.log("console");'.repeat(50);

beforeAll(async () => {
  directory = mkdtempSync(path.join(tmpdir(), 'console-dist-'));
  mkdirSync(path.join(directory, 'assets'));
  writeFileSync(path.join(directory, 'index.html'), '<!doctype html><title>built</title>');
  writeFileSync(path.join(directory, 'assets', 'index-abc123.js'), script);
  writeFileSync(path.join(directory, 'assets', 'index-abc123.js.br'), brotliCompressSync(script));
  writeFileSync(path.join(directory, 'assets', 'index-abc123.js.gz'), gzipSync(script));
  writeFileSync(path.join(directory, 'assets', 'style-def456.css'), 'body{margin:0}');
  writeFileSync(path.join(directory, 'secret.txt'), 'not an asset');
  app = Fastify();
  registerConsoleRoutes(app, { directory });
  const page = new ConsolePageSource(directory);
  app.setNotFoundHandler((_request, reply) => sendConsolePage(reply, page.current()));
  await app.ready();
});

afterAll(async () => {
  await app?.close();
  rmSync(directory, { recursive: true, force: true });
});

describe('the console page', () => {
  it('is the built index.html with no-cache and a strict Content-Security-Policy', async () => {
    const response = await app.inject({ url: '/channels' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('<!doctype html><title>built</title>');
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(response.headers['cache-control']).toBe('no-cache');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    const policy = String(response.headers['content-security-policy']);
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "img-src 'self' data:",
      "connect-src 'self'",
      "frame-ancestors 'none'",
      "base-uri 'none'",
      "form-action 'self'",
    ]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
  });

  it('falls back to a placeholder while the console is not built', () => {
    const page = loadConsolePage(path.join(directory, 'missing'));
    expect(page).toContain('<h1>Model Gateway</h1>');
    expect(new ConsolePageSource(path.join(directory, 'missing')).current()).toBe(page);
  });

  it('is read again once a new build replaced it', () => {
    const source = new ConsolePageSource(directory);
    const file = path.join(directory, 'index.html');
    writeFileSync(file, '<!doctype html><title>rebuilt</title>');
    const later = Date.now() + 5000;
    expect(source.current(later)).toBe('<!doctype html><title>rebuilt</title>');
    writeFileSync(file, '<!doctype html><title>built</title>');
    expect(source.current(later + 5000)).toBe('<!doctype html><title>built</title>');
  });
});

describe('hashed assets', () => {
  it('are cached for a year as immutable, in the best encoding the client accepts', async () => {
    const brotli = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'gzip, br' },
    });
    expect(brotli.statusCode).toBe(200);
    expect(brotli.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotli.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(brotli.headers['content-encoding']).toBe('br');
    expect(brotli.headers['vary']).toBe('accept-encoding');
    expect(brotli.rawPayload).toEqual(brotliCompressSync(script));

    const gzip = await app.inject({
      url: '/assets/index-abc123.js',
      headers: { 'accept-encoding': 'br;q=0, gzip' },
    });
    expect(gzip.headers['content-encoding']).toBe('gzip');

    const plain = await app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);

    const css = await app.inject({ url: '/assets/style-def456.css', headers: { 'accept-encoding': 'br' } });
    expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    expect(css.headers['content-encoding']).toBeUndefined();
    expect(css.headers['vary']).toBeUndefined();
  });

  it('are 404 when missing or outside assets/, never the page', async () => {
    for (const url of [
      '/assets/index-missing.js',
      '/assets/..%2Fsecret.txt',
      '/assets/sub/index-abc123.js',
      '/assets/index-abc123.js.br',
    ]) {
      const response = await app.inject({ url });
      expect(response.statusCode, url).toBe(404);
      expect(response.body).not.toContain('not an asset');
      expect(response.headers['cache-control']).not.toContain('immutable');
    }
    // Dot segments are resolved before routing: this is the page's path `/secret.txt`.
    const dotted = await app.inject({ url: '/assets/../secret.txt' });
    expect(dotted.body).toBe('<!doctype html><title>built</title>');
  });
});

describe('pickContentEncoding', () => {
  const both = { br: true, gzip: true };
  it('prefers Brotli, honours q=0 and *, and falls back to none', () => {
    expect(pickContentEncoding('gzip, deflate, br', both)).toBe('br');
    expect(pickContentEncoding('gzip', both)).toBe('gzip');
    expect(pickContentEncoding('br;q=0, *', both)).toBe('gzip');
    expect(pickContentEncoding('*;q=0', both)).toBe('identity');
    expect(pickContentEncoding(undefined, both)).toBe('identity');
    expect(pickContentEncoding('br', { br: false, gzip: true })).toBe('identity');
  });
});
