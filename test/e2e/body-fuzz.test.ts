import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, send } from '../helpers/client-request.js';
import { expectSpecAnswer } from '../helpers/expect-spec-answer.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';
import { adminBodyTargets, relayTargets } from '../helpers/relay-targets.js';
import { TEST_ADMIN_TOKEN } from '../helpers/start-test-gateway.js';
import { seededRandom } from '../helpers/seeded-random.js';

/**
 * A seeded fuzz corpus over every relaying endpoint, the model lists and the management bodies:
 * valid bodies with members replaced, added (prototype names among them), nested, truncated and
 * byte-flipped. The seed is fixed, so a failure names a body that fails again on the next run.
 */

const SEED = 0x5eed_2024;
const ROUNDS_PER_TARGET = 120;

let fixture: RelayFixture;
const prototypeMembers = Object.getOwnPropertyNames(Object.prototype);

beforeAll(async () => {
  fixture = await startRelayFixture({ balance: 100_000 });
});

afterAll(async () => {
  await fixture?.close();
  expect(Object.getOwnPropertyNames(Object.prototype)).toEqual(prototypeMembers);
});

class Fuzzer {
  constructor(private readonly random: () => number) {}

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.random() * items.length)] as T;
  }

  chance(probability: number): boolean {
    return this.random() < probability;
  }

  text(): string {
    return this.pick([
      '',
      'hi',
      '\u0000',
      '\ud800',
      '🚀中文',
      '\\"',
      '<script>',
      '%s%n',
      'a'.repeat(5000),
      'gpt-4o@high',
      '../../etc/passwd',
      '\r\n\r\nHTTP/1.1 200 OK',
    ]);
  }

  key(known: readonly string[]): string {
    return this.chance(0.5)
      ? this.pick(known)
      : this.pick([
          '__proto__',
          'constructor',
          'prototype',
          'toString',
          'hasOwnProperty',
          '',
          'x',
          this.text(),
        ]);
  }

  value(depth = 0): unknown {
    const roll = this.random();
    if (depth > 6 || roll < 0.45) {
      return this.pick([null, true, false, 0, -0, -1, 1.5, 1e308, -1e308, 2 ** 53 + 1, 1e-320, this.text()]);
    }
    const size = Math.floor(this.random() * 4);
    if (roll < 0.7) return Array.from({ length: size }, () => this.value(depth + 1));
    return Object.fromEntries(
      Array.from({ length: size }, () => [this.key(['type', 'role', 'text']), this.value(depth + 1)]),
    );
  }

  /** A valid body with one to four mutations, as JSON text or bytes. */
  mutate(body: Record<string, unknown>, fields: readonly string[]): string | Buffer {
    const copy = structuredClone(body) as Record<string, unknown>;
    const raw: string[] = [];
    for (let count = 1 + Math.floor(this.random() * 4); count > 0; count--) {
      const field = this.key([...fields, ...Object.keys(copy)]);
      const roll = this.random();
      if (roll < 0.35) copy[field] = this.value();
      else if (roll < 0.45) delete copy[field];
      else if (roll < 0.6) raw.push(`${JSON.stringify(field)}:${JSON.stringify(this.value())}`);
      else if (roll < 0.7) copy[field] = this.nest(this.chance(0.5) ? 100 : 140);
      else this.mutateInside(copy);
    }
    const text = raw.length > 0 ? `{${raw.join(',')},${JSON.stringify(copy).slice(1)}` : JSON.stringify(copy);
    const finish = this.random();
    if (finish < 0.08) return text.slice(0, Math.floor(this.random() * text.length));
    if (finish < 0.16) {
      const bytes = Buffer.from(text);
      bytes[Math.floor(this.random() * bytes.length)] = Math.floor(this.random() * 256);
      return bytes;
    }
    return text;
  }

  private nest(depth: number): unknown {
    let value: unknown = this.pick([[], {}, 'leaf']);
    for (let level = 0; level < depth; level++)
      value = this.chance(0.5) ? [value] : { [this.key(['a'])]: value };
    return value;
  }

  /** Replaces a member somewhere below the top: inside a message, a part, a tool. */
  private mutateInside(value: unknown, depth = 0): void {
    if (typeof value !== 'object' || value === null || depth > 5) return;
    const keys = Object.keys(value);
    if (keys.length === 0) return;
    const key = this.pick(keys);
    const member = (value as Record<string, unknown>)[key];
    if (this.chance(0.5) && typeof member === 'object' && member !== null)
      this.mutateInside(member, depth + 1);
    else (value as Record<string, unknown>)[this.key(keys)] = this.value();
  }
}

describe.each(relayTargets)('fuzzed $name bodies', (target) => {
  it('each get an answer in the spec shapes', async () => {
    const fuzz = new Fuzzer(seededRandom(SEED ^ target.path.length));
    for (let round = 0; round < ROUNDS_PER_TARGET; round++) {
      const body = fuzz.mutate(target.body(), target.fields);
      // Half the corpus with a strict upstream, half with one that answers anything.
      fixture.upstream.validateRequests(round % 2 === 0);
      const response = await send(fixture.gw.origin, target.path, {
        method: 'POST',
        headers: target.headers(fixture.key),
        body,
      });
      try {
        expectSpecAnswer(response, target.family);
      } catch (error) {
        throw new Error(`seed ${SEED}, round ${round}, body ${String(body).slice(0, 500)}`, { cause: error });
      }
    }
  }, 120_000);
});

describe('fuzzed model lists and management bodies', () => {
  it('model lists under random queries and headers', async () => {
    const fuzz = new Fuzzer(seededRandom(SEED + 1));
    for (let round = 0; round < 60; round++) {
      // Every byte escaped, so lone surrogates and NULs reach the query parser; a broken escape too.
      const escape = (text: string) =>
        [...Buffer.from(text)].map((byte) => `%${byte.toString(16).padStart(2, '0')}`).join('');
      const query = Array.from(
        { length: 1 + (round % 3) },
        () =>
          `${escape(fuzz.key(['key', 'alt', 'pageSize']))}[${escape(fuzz.key(['x']))}]=${escape(fuzz.text())}`,
      )
        .concat(round % 5 === 0 ? ['%zz=%', '__proto__%5Bpolluted%5D=1'] : [])
        .join('&');
      const path = fuzz.pick(['/v1/models', '/v1beta/models', '/v1beta/openai/models']);
      const headers = fuzz.pick<Record<string, string>>([
        bearer(fixture.key),
        { 'x-api-key': fixture.key, 'anthropic-version': fuzz.text().replace(/[^\x20-\x7e]/g, '') },
        { 'x-goog-api-key': fixture.key },
        { authorization: fuzz.text().replace(/[^\x20-\x7e]/g, '') },
      ]);
      const response = await send(fixture.gw.origin, `${path}?${query}`, { headers });
      expectSpecAnswer(response);
    }
  });

  it('management bodies', async () => {
    const fuzz = new Fuzzer(seededRandom(SEED + 2));
    for (const target of adminBodyTargets) {
      for (let round = 0; round < 40; round++) {
        const body = fuzz.mutate(target.body, Object.keys(target.body));
        const response = await send(fixture.gw.origin, target.path, {
          method: target.method,
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
          body,
        });
        expectSpecAnswer(response);
        expect(response.status).toBeLessThan(500);
      }
    }
    // The settings stay valid whatever the corpus managed to store.
    const settings = await fixture.gw.admin('GET', '/settings');
    expect(settings.status).toBe(200);
  });

  it('the gateway still relays after the corpus', async () => {
    const chat = relayTargets[0]!;
    fixture.upstream.validateRequests(true);
    const response = await send(fixture.gw.origin, chat.path, {
      method: 'POST',
      headers: chat.headers(fixture.key),
      body: chat.body(),
    });
    expect(response.status).toBe(200);
  });
});
