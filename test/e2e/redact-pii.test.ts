import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startRelayFixture, type RelayFixture } from '../helpers/relay-fixture.js';

/**
 * `redact_pii: upstream` (admin-api section 12): the texts of a request reach the upstream with
 * e-mail addresses, phone numbers, card numbers, IBANs and secrets replaced, whatever the client
 * family and whether the body is passed through or converted; other members stay as sent.
 */
const KEY = 'redact-upstream-key';
const PERSONAL = 'Mail jane.doe@example.com or call +44 20 7946 0958; card 4111 1111 1111 1111.';
const REDACTED = 'Mail [REDACTED:email] or call [REDACTED:phone]; card [REDACTED:card].';

describe('redact_pii upstream', () => {
  let fx: RelayFixture;
  let claude: FakeUpstream;
  beforeAll(async () => {
    fx = await startRelayFixture({ balance: 100 });
    claude = await startFakeAnthropic({ apiKey: KEY });
    await fx.gw.admin('POST', '/channels', {
      name: 'claude',
      type: 'anthropic',
      base_url: claude.origin,
      keys: [KEY],
      models: ['claude-a'],
    });
    await fx.gw.admin('PUT', '/prices/claude-a', { input: 1, output: 1 });
  });
  afterAll(async () => {
    await fx?.close();
    await claude?.close();
  });
  beforeEach(() => {
    fx.upstream.clear();
    claude.clear();
  });

  const chat = (model: string) =>
    fx.openai.chat.completions.create({
      model,
      max_tokens: 8,
      messages: [
        { role: 'system', content: 'Reply to jane.doe@example.com.' },
        { role: 'user', content: [{ type: 'text', text: PERSONAL }] },
      ],
    });

  test('off: the texts go as sent', async () => {
    await chat('gpt-4o');
    expect(JSON.stringify(fx.upstream.requests[0]!.body)).toContain('jane.doe@example.com');
  });

  describe('on', () => {
    beforeAll(async () => {
      expect((await fx.gw.admin('PATCH', '/settings', { redact_pii: 'upstream' })).status).toBe(200);
    });
    afterAll(async () => {
      await fx.gw.admin('PATCH', '/settings', { redact_pii: 'off' });
    });

    test('a chat request passed through reaches the upstream redacted, its other members as sent', async () => {
      await chat('gpt-4o');
      const sent = fx.upstream.requests[0]!.body as any;
      expect(sent.messages[0].content).toBe('Reply to [REDACTED:email].');
      expect(sent.messages[1].content[0].text).toBe(REDACTED);
      expect(sent.max_tokens).toBe(8);
      expect(fx.upstream.requests[0]!.rawBody!.toString()).not.toContain('4111');
    });

    test('a chat request converted for an Anthropic upstream reaches it redacted', async () => {
      await chat('claude-a');
      const sent = claude.requests[0]!.body as any;
      expect(JSON.stringify(sent)).not.toContain('jane.doe@example.com');
      expect(JSON.stringify(sent)).toContain('[REDACTED:card]');
    });

    test('a messages client: the system prompt and the messages are redacted', async () => {
      const anthropic = new Anthropic({ apiKey: fx.key, baseURL: fx.gw.origin, maxRetries: 0 });
      await anthropic.messages.create({
        model: 'claude-a',
        max_tokens: 8,
        system: 'IBAN GB82 WEST 1234 5698 7654 32 is on file.',
        messages: [{ role: 'user', content: PERSONAL }],
      });
      const sent = claude.requests[0]!.body as any;
      expect(JSON.stringify(sent.system)).toContain('[REDACTED:iban]');
      expect(JSON.stringify(sent.messages)).toContain(REDACTED);
    });

    test('text without personal data goes through byte for byte', async () => {
      const body =
        '{"model":"gpt-4o-mini","max_tokens":8,"messages":[{"role":"user","content":"h\\u0069 there"}]}';
      const answer = await fetch(`${fx.gw.origin}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${fx.key}`, 'content-type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(200);
      expect(fx.upstream.requests[0]!.rawBody!.toString()).toBe(body);
    });
  });
});
