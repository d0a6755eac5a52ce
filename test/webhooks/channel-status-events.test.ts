import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { LocalChangeFeed } from '../../src/events/change-feed.js';
import { ChannelHealthService, type HealthSettings } from '../../src/routing/channel-health-service.js';
import type { ChannelRecord } from '../../src/store/channels-repository.js';
import type { Store } from '../../src/store/database.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { storeVariants } from '../helpers/test-stores.js';
import { captureLogger, defaultHealthSettings, eventually } from '../routing/health-fixture.js';

/**
 * Admin-api section 10.1 at the store: a status change made by health is stored as its event in
 * the same step (`transitionStatus`), with `channel_id`, `name` and `reason`; with no
 * `webhook_url` the status still changes and nothing is stored. Every model failing takes the
 * channel out here (the e2e test covers a refused key).
 */
describe.each(storeVariants())('channel status events on $name', (variant) => {
  let store: Store;
  let repositories: Repositories;
  let channel: ChannelRecord;
  let health: ChannelHealthService;
  let settings: HealthSettings;
  let probeAnswers = false;

  beforeEach(async () => {
    store = await variant.open();
    repositories = createRepositories(store);
    channel = await repositories.channels.create({
      name: 'flaky upstream',
      type: 'openai',
      baseUrl: null,
      keys: ['key-one'],
      models: ['a', 'b'],
      modelMapping: {},
      groups: ['default'],
      priority: 0,
      weight: 1,
      endpoints: null,
      config: {},
      status: 'enabled',
    });
    settings = {
      ...defaultHealthSettings,
      channel_failure_threshold: 2,
      webhook_url: 'http://127.0.0.1:9/hooks',
    };
    probeAnswers = false;
    health = new ChannelHealthService({
      repository: repositories.channels,
      changes: new LocalChangeFeed(),
      settings: () => settings,
      probe: async () => probeAnswers,
      logger: captureLogger().logger,
    });
  });
  afterEach(async () => {
    health.close();
    await store.close();
  });

  const status = async () => (await repositories.channels.find(channel.id))?.status;
  const stored = () =>
    store.db.selectFrom('webhook_events').select(['id', 'type', 'body']).orderBy('created_at').execute();

  function failEveryModel() {
    for (let round = 0; round < settings.channel_failure_threshold; round += 1)
      for (const model of channel.models) health.recordFailure(channel, model, { detail: 'HTTP 500' });
  }

  test('auto_disabled by failing models, then recovered by the probe: one event each, stored with the change', async () => {
    failEveryModel();
    expect(await eventually(async () => (await status()) === 'auto_disabled')).toBe(true);
    const [disabled] = await stored();
    expect(disabled?.type).toBe('channel.auto_disabled');
    const disabledBody = JSON.parse(disabled!.body);
    expect(disabledBody).toMatchObject({ id: disabled!.id, type: 'channel.auto_disabled' });
    expect(disabledBody.data).toEqual({
      channel_id: channel.id,
      name: 'flaky upstream',
      reason: expect.stringMatching(/\S/),
    });

    // Failures go on while it is out: the status does not change again, so no second event. The
    // probe answers only once their status checks have run: one checked after the recovery would
    // rightly disable the channel again.
    failEveryModel();
    await new Promise((resolve) => setTimeout(resolve, 200));
    probeAnswers = true;
    expect(await eventually(async () => (await status()) === 'enabled')).toBe(true);
    const events = await stored();
    expect(events.map((event) => event.type)).toEqual(['channel.auto_disabled', 'channel.recovered']);
    expect(JSON.parse(events[1]!.body).data).toEqual({
      channel_id: channel.id,
      name: 'flaky upstream',
      reason: expect.stringMatching(/\S/),
    });
  });

  test('without a webhook_url the status still changes and no event is stored', async () => {
    settings = { ...settings, webhook_url: null };
    failEveryModel();
    expect(await eventually(async () => (await status()) === 'auto_disabled')).toBe(true);
    probeAnswers = true;
    expect(await eventually(async () => (await status()) === 'enabled')).toBe(true);
    expect(await stored()).toEqual([]);
  });
});
