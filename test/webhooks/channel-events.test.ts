import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { gatewayVariants, startWebhookFixture, type WebhookFixture } from './webhook-fixture.js';

/**
 * `channel.auto_disabled` and `channel.recovered` (admin-api section 10.1): a channel whose status
 * health changes (section 7) sends an event with `channel_id`, `name` and `reason`. Here the
 * upstream refuses the channel's only key once, which takes the channel out; the health probe
 * (every second) then finds it answering and puts it back.
 */
describe.each(gatewayVariants())('channel events on $name', ({ gateway }) => {
  let hooks: WebhookFixture;

  beforeAll(async () => {
    hooks = await startWebhookFixture(gateway);
    expect((await hooks.fx.gw.admin('PATCH', '/settings', { channel_probe_interval_s: 1 })).status).toBe(200);
  });
  afterAll(async () => {
    await hooks?.close();
  });

  test('a channel set auto_disabled by a refused key, and enabled again by its probe, sends both events', async () => {
    const { fx } = hooks;
    const channelStatus = async () => (await fx.gw.admin('GET', `/channels/${fx.channelId}`)).body.status;
    fx.upstream.script({ type: 'error', status: 401, message: 'Incorrect API key provided.' });
    const refused = await fx.openai.chat.completions
      .create({ model: 'gpt-4o', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }] })
      .catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(OpenAI.APIError);

    const [disabled] = await hooks.receivedOf('channel.auto_disabled', 1);
    expect(disabled!.body.data).toEqual({
      channel_id: fx.channelId,
      name: 'primary',
      reason: expect.stringMatching(/\S/),
    });

    const [recovered] = await hooks.receivedOf('channel.recovered', 1);
    expect(recovered!.body.data).toEqual({
      channel_id: fx.channelId,
      name: 'primary',
      reason: expect.stringMatching(/\S/),
    });
    expect(recovered!.body.data.reason).not.toBe(disabled!.body.data.reason);
    expect(await channelStatus()).toBe('enabled');

    const types = hooks.receiver.received.map((each) => each.body.type);
    expect(types).toEqual(['channel.auto_disabled', 'channel.recovered']);
    const listed = await hooks.deliveries();
    expect(listed.map((delivery) => delivery.type).sort()).toEqual([
      'channel.auto_disabled',
      'channel.recovered',
    ]);
  });

  test('an admin disabling and enabling a channel is no health change and sends nothing', async () => {
    const { fx } = hooks;
    const before = hooks.receiver.received.length;
    await fx.gw.admin('PATCH', `/channels/${fx.channelId}`, { status: 'disabled' });
    await fx.gw.admin('PATCH', `/channels/${fx.channelId}`, { status: 'enabled' });
    await fx.gw.gateway.services.webhooks.round();
    expect(hooks.receiver.received).toHaveLength(before);
    expect(await hooks.deliveries()).toHaveLength(before);
  });
});
