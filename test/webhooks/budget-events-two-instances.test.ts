import OpenAI from 'openai';
import { expect, test } from 'vitest';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import { waitFor } from '../helpers/cluster-gateway.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import { dropSchema, uniqueSchemaName } from '../helpers/test-stores.js';
import { startWebhookReceiver } from '../helpers/webhook-receiver.js';
import { sleep } from '../routing/health-fixture.js';
import { databaseUrl, redisUrl } from './webhook-fixture.js';

/**
 * Admin-api section 10.1, "decided durably: a second instance does not send it again": two
 * instances on one PostgreSQL schema (and Redis) settle requests of one key at once, crossing the
 * same window's fractions from both sides; each fraction is one stored event, and with both
 * deliverers racing for it the receiver gets it once.
 */
const UPSTREAM_KEY = 'two-instance-upstream-key';
const REQUESTS = 40;
const FRACTIONS = [0.25, 0.5, 0.75, 1];

test.runIf(databaseUrl && redisUrl)(
  'requests racing on two instances across the same thresholds store and deliver each event once',
  async () => {
    const schema = uniqueSchemaName();
    const shared = { databaseUrl, databaseSchema: schema, redisUrl };
    const upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
    const receiver = await startWebhookReceiver();
    const instances: TestGateway[] = [];
    try {
      instances.push(await startTestGateway(shared), await startTestGateway(shared));
      const [first, second] = instances as [TestGateway, TestGateway];
      await first.admin('POST', '/channels', {
        name: 'shared',
        type: 'openai',
        base_url: upstream.origin,
        keys: [UPSTREAM_KEY],
        models: ['gpt-4o'],
      });
      await first.admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10 });
      await first.admin('PATCH', '/settings', { webhook_url: receiver.url, webhook_secret: 'two-instances' });
      const user = await first.admin('POST', '/users', { username: 'racer', balance: 10 });
      const key = await first.admin('POST', '/keys', {
        user_id: user.body.id,
        budgets: [{ period: 'day', requests: REQUESTS, alert_at: FRACTIONS }],
      });
      // The second instance hears of the settings, the channel and the key through Redis.
      await waitFor(
        () => second.gateway.services.settings.get().webhook_url,
        (url) => url === receiver.url,
        { timeoutMs: 5_000, what: 'webhook_url on the second instance' },
      );

      const clients = instances.map(
        (instance) => new OpenAI({ apiKey: key.body.key, baseURL: `${instance.origin}/v1`, maxRetries: 0 }),
      );
      await Promise.all(
        Array.from({ length: REQUESTS }, (_, index) =>
          clients[index % 2]!.chat.completions.create({
            model: 'gpt-4o',
            max_tokens: 16,
            messages: [{ role: 'user', content: `race ${index}` }],
          }),
        ),
      );
      await Promise.all(instances.map((instance) => instance.gateway.services.tracker.settled()));

      const stored = await first.gateway.services.store.db
        .selectFrom('webhook_events')
        .select(['id', 'type', 'body'])
        .execute();
      expect(stored.map((row) => row.type)).toEqual(FRACTIONS.map(() => 'budget.threshold'));
      const thresholds = stored.map((row) => JSON.parse(row.body).data.threshold).sort();
      expect(thresholds).toEqual(FRACTIONS);

      // Both deliverers go for the same due events at the same moments.
      const rounds = () =>
        Promise.all(instances.map((instance) => instance.gateway.services.webhooks.round()));
      await waitFor(
        async () => {
          await rounds();
          return receiver.received.length;
        },
        (count) => count >= FRACTIONS.length,
        { timeoutMs: 5_000, what: 'every event at the receiver' },
      );
      await sleep(200);
      await rounds();
      expect(receiver.ids().sort()).toEqual(stored.map((row) => row.id).sort());
      const listed = (await second.admin('GET', '/webhook-deliveries')).body.data;
      expect(listed.map((delivery: any) => [delivery.status, delivery.attempts])).toEqual(
        FRACTIONS.map(() => ['delivered', 1]),
      );
    } finally {
      for (const instance of instances) await instance.close();
      await upstream.close();
      await receiver.close();
      await dropSchema(databaseUrl!, schema);
    }
  },
);
