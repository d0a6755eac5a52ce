import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, vi } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { allStarted } from './all-started.js';
import {
  adminCall,
  ensureGatewayBuilt,
  startBuiltGateway,
  stopBuiltGateway,
  type BuiltGateway,
} from './built-gateway.js';
import { launchChromium, openContext, signInWithToken } from './console-browser.js';

export const ADMIN_TOKEN = 'browser-admin-token';
export const UPSTREAM_KEY = 'sk-fake-upstream';
export const MODEL = 'gpt-4o-mini';
export const ALICE = { username: 'alice', password: 'alice-password-1' };

interface Closable {
  close(): Promise<void>;
}

export interface ConsoleBrowserFixtureOptions<Alongside extends Record<string, Closable>> {
  /** What the fake OpenAI upstream answers; its own default otherwise. */
  replyText?: string;
  /** More services started with the gateway (a webhook receiver, say) and closed after it. */
  alongside?: { [Name in keyof Alongside]: () => Promise<Alongside[Name]> };
  /**
   * Set up through the management API before the tests: a channel `fake-openai` on the fake upstream
   * for these models, MODEL priced at 0.15 / 0.60 USD per million tokens, and ALICE with 5 USD and
   * the key `alice-laptop`. Without it the gateway starts empty.
   */
  seed?: { models: readonly string[] };
  /**
   * The admin's page: `signed-in` with the admin token, its uncaught errors failing the test that
   * caused them; or `signed-out`, a blank page for the tests to sign in on. No page without it.
   */
  admin?: 'signed-in' | 'signed-out';
}

/**
 * What the fixture started, for the tests and for hooks registered after it: reading a part before
 * the fixture's `beforeAll` has run, or one its options did not ask for, throws.
 */
export interface ConsoleBrowserFixture<Alongside> {
  gateway: BuiltGateway;
  upstream: FakeUpstream;
  browser: Browser;
  alongside: Alongside;
  admin: Page;
  /** Alice's user id, her key's id and the key itself (with `seed`). */
  alice: { id: number; keyId: number; key: string };
  /** A management API call with the admin token; the parsed JSON reply. */
  call(method: string, route: string, body?: unknown): Promise<any>;
}

/**
 * The built gateway (with `dist/` and `console/dist` built first) on a temporary data directory,
 * a fake OpenAI upstream and Chromium, started before the file's tests and stopped after them.
 * Also sets the file's test timeout: a whole browser session per test takes about 10 s alone, and
 * more with the rest of the suite on both cores.
 */
export function useConsoleBrowserFixture<Alongside extends Record<string, Closable> = Record<never, never>>(
  options: ConsoleBrowserFixtureOptions<Alongside>,
): ConsoleBrowserFixture<Alongside> {
  vi.setConfig({ testTimeout: 60_000 });
  let dataDir: string | undefined;
  let gateway: BuiltGateway | undefined;
  let upstream: FakeUpstream | undefined;
  let browser: Browser | undefined;
  let admin: Page | undefined;
  let alice: ConsoleBrowserFixture<Alongside>['alice'] | undefined;
  const alongside: Partial<Alongside> = {};
  /** Uncaught errors of the signed-in admin's page: a crashed page fails the test that crashed it. */
  const pageErrors: string[] = [];

  const present = <Value>(value: Value | undefined, what: string): Value => {
    if (value === undefined) throw new Error(`${what} is not there: not started yet, or not asked for`);
    return value;
  };
  const fixture: ConsoleBrowserFixture<Alongside> = {
    get gateway() {
      return present(gateway, 'the gateway');
    },
    get upstream() {
      return present(upstream, 'the fake upstream');
    },
    get browser() {
      return present(browser, 'the browser');
    },
    get alongside() {
      return alongside as Alongside;
    },
    get admin() {
      return present(admin, 'the admin page (option `admin`)');
    },
    get alice() {
      return present(alice, 'Alice (option `seed`)');
    },
    call: (method, route, body) => adminCall(fixture.gateway.origin, ADMIN_TOKEN, method, route, body),
  };

  beforeAll(async () => {
    await ensureGatewayBuilt();
    dataDir = mkdtempSync(path.join(tmpdir(), 'gateway-browser-'));
    const starts = Object.entries(options.alongside ?? {}) as [keyof Alongside, () => Promise<Closable>][];
    await allStarted([
      startFakeOpenAI({ apiKey: UPSTREAM_KEY, replyText: options.replyText }).then(
        (started) => (upstream = started),
      ),
      ...starts.map(([name, start]) =>
        start().then((started) => (alongside[name] = started as Alongside[keyof Alongside])),
      ),
      startBuiltGateway({ GATEWAY_DATA_DIR: dataDir, GATEWAY_ADMIN_TOKEN: ADMIN_TOKEN }).then(
        (started) => (gateway = started),
      ),
      launchChromium().then((started) => (browser = started)),
    ]);
    if (options.seed) {
      await fixture.call('POST', '/channels', {
        name: 'fake-openai',
        type: 'openai',
        base_url: fixture.upstream.origin,
        keys: [UPSTREAM_KEY],
        models: options.seed.models,
      });
      await fixture.call('PUT', `/prices/${MODEL}`, { input: 0.15, output: 0.6 });
      const user = await fixture.call('POST', '/users', { ...ALICE, balance: 5 });
      const key = await fixture.call('POST', '/keys', { user_id: user.id, name: 'alice-laptop' });
      alice = { id: user.id, keyId: key.id, key: key.key };
    }
    if (options.admin) {
      const page = await (await openContext(fixture.browser, { origin: fixture.gateway.origin })).newPage();
      if (options.admin === 'signed-in') {
        page.on('pageerror', (error) => pageErrors.push(error.message));
        await signInWithToken(page, ADMIN_TOKEN);
      }
      admin = page;
    }
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    if (gateway) await stopBuiltGateway(gateway);
    await upstream?.close();
    for (const service of Object.values(alongside) as Closable[]) await service.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  if (options.admin === 'signed-in') {
    afterEach(() => {
      expect(pageErrors.splice(0)).toEqual([]);
    });
  }

  return fixture;
}
