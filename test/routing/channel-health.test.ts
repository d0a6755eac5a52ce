import { afterEach, describe, expect, it } from 'vitest';
import { LocalChangeFeed } from '../../src/events/change-feed.js';
import { ChannelHealthService, type HealthSettings } from '../../src/routing/channel-health-service.js';
import type { HealthSync } from '../../src/routing/health-sync.js';
import { keyFingerprint } from '../../src/routing/key-fingerprint.js';
import type { ChannelRecord, NewChannel } from '../../src/store/channels-repository.js';
import { createRepositories, type Repositories } from '../../src/store/repositories.js';
import { storeVariants } from '../helpers/test-stores.js';
import { captureLogger, defaultHealthSettings, eventually, FakeClock, sleep } from './health-fixture.js';

// admin-api section 7: keys refused with 401/403 are set aside; only a broken channel is auto-disabled.
interface Probe {
  channelId: number;
  key: string | undefined;
}

async function setup(
  options: {
    channel?: Partial<NewChannel>;
    probe?: (probe: Probe) => boolean;
    repository?: (repositories: Repositories) => Repositories['channels'];
    sync?: HealthSync;
  } = {},
) {
  const store = await storeVariants()[0]!.open();
  const repositories = createRepositories(store);
  const channel = await repositories.channels.create({
    name: 'c',
    type: 'openai',
    baseUrl: null,
    keys: ['key-one', 'key-two'],
    models: ['a', 'b'],
    modelMapping: {},
    groups: ['default'],
    priority: 0,
    weight: 1,
    endpoints: null,
    config: {},
    status: 'enabled',
    ...options.channel,
  });
  const changes = new LocalChangeFeed();
  const published: string[] = [];
  changes.subscribe((topic) => void published.push(topic));
  const probes: Probe[] = [];
  const clock = new FakeClock();
  const captured = captureLogger();
  let settings: HealthSettings = { ...defaultHealthSettings };
  const health = new ChannelHealthService({
    repository: options.repository?.(repositories) ?? repositories.channels,
    changes,
    settings: () => settings,
    probe: async (probed, { key }) => {
      const probe = { channelId: probed.id, key };
      probes.push(probe);
      return options.probe?.(probe) ?? false;
    },
    logger: captured.logger,
    now: clock.now,
    sync: options.sync,
  });
  const fixture = {
    store,
    repositories,
    channel,
    changes,
    published,
    probes,
    clock,
    health,
    ...captured,
    setSettings(changes: Partial<HealthSettings>) {
      settings = { ...settings, ...changes };
    },
    status: async () => (await repositories.channels.find(channel.id))?.status,
    /** The channel as the routing cache would hand it over. */
    fresh: async () => (await repositories.channels.find(channel.id)) as ChannelRecord,
    async close() {
      health.close();
      await store.close();
    },
  };
  opened.push(fixture);
  return fixture;
}

const opened: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((fixture) => fixture.close()));
});

type Fixture = Awaited<ReturnType<typeof setup>>;

function failModel(fixture: Fixture, model: string, times: number) {
  for (let index = 0; index < times; index += 1) {
    const attempt = fixture.health.route([fixture.channel], model).next();
    expect(attempt).toBeDefined();
    attempt?.failed();
  }
}

describe('keys refused by the upstream', () => {
  it('a refused key is set aside and the same channel is retried with its next key', async () => {
    const fixture = await setup({ channel: { keys: ['key-one', 'key-two', 'key-three'] } });
    const { health, channel } = fixture;
    const route = health.route([channel], 'a');
    const first = route.next()!;
    expect(first.key).toBe('key-one');
    first.refused();
    const retry = route.next()!;
    expect(retry).toMatchObject({ channel, key: 'key-two' });
    retry.succeeded();
    // Later requests skip the refused key in the rotation.
    expect([health.nextKey(channel), health.nextKey(channel), health.nextKey(channel)]).toEqual([
      'key-three',
      'key-two',
      'key-three',
    ]);
    expect(health.report(channel).keys).toEqual([
      { index: 0, state: 'refused' },
      { index: 1, state: 'active' },
      { index: 2, state: 'active' },
    ]);
    expect(await fixture.status()).toBe('enabled');
  });

  it('a refused key is probed with that key and restored when the probe succeeds', async () => {
    let accept = false;
    const fixture = await setup({ probe: () => accept });
    const { health, channel } = fixture;
    health.route([channel], 'a').next()!.refused();
    expect(await eventually(() => fixture.probes.length >= 2)).toBe(true);
    expect(fixture.probes.every((probe) => probe.key === 'key-one')).toBe(true);
    expect(health.report(channel).keys[0]?.state).toBe('refused');
    accept = true;
    expect(await eventually(() => health.report(channel).keys[0]?.state === 'active')).toBe(true);
    const probed = fixture.probes.length;
    await sleep(80);
    expect(fixture.probes.length).toBe(probed);
  });

  it('logs a fingerprint of the key, never the key', async () => {
    const fixture = await setup();
    fixture.health.route([fixture.channel], 'a').next()!.refused();
    const entry = fixture.entries.find((line) => line.msg.includes('refused a channel key'));
    expect(entry).toMatchObject({ channelId: fixture.channel.id, key: keyFingerprint('key-one') });
    expect(JSON.stringify(fixture.entries)).not.toContain('key-one');
  });

  it('when every key is refused the channel is auto-disabled, probed, and re-enabled with its keys', async () => {
    let accept = false;
    const fixture = await setup({ probe: () => accept });
    const { health, channel } = fixture;
    const route = health.route([channel], 'a');
    route.next()!.refused();
    route.next()!.refused();
    expect(route.next()).toBeUndefined();
    expect(health.nextKey(channel)).toBeUndefined();
    expect(await eventually(async () => (await fixture.status()) === 'auto_disabled')).toBe(true);
    expect(fixture.published).toContain('channels');
    expect(await eventually(() => fixture.probes.some((probe) => probe.key === undefined))).toBe(true);
    accept = true;
    expect(await eventually(async () => (await fixture.status()) === 'enabled')).toBe(true);
    expect(health.report(channel).keys.map((key) => key.state)).toEqual(['active', 'active']);
    expect(health.nextKey(channel)).toBeDefined();
  });

  it('a channel an admin disabled is left disabled, and its probing stops', async () => {
    const fixture = await setup({ channel: { keys: ['only'] }, probe: () => true });
    fixture.health.route([fixture.channel], 'a').next()!.refused();
    await fixture.repositories.channels.update(fixture.channel.id, { status: 'disabled' });
    await sleep(100);
    expect(await fixture.status()).toBe('disabled');
    const probed = fixture.probes.length;
    await sleep(60);
    expect(fixture.probes.length).toBe(probed);
  });
});

describe('auto-disable from model failures', () => {
  it('one sick model never disables the channel', async () => {
    const fixture = await setup();
    failModel(fixture, 'a', 20);
    await sleep(30);
    expect(await fixture.status()).toBe('enabled');
    expect(fixture.health.report(fixture.channel).models).toEqual([
      expect.objectContaining({ model: 'a', state: 'cooling_down', failures: 20 }),
      { model: 'b', state: 'healthy', failures: 0, until: null },
    ]);
  });

  it('every model failing at least channel_failure_threshold times in a row disables it; a probe restores it', async () => {
    let answer = false;
    const fixture = await setup({ probe: () => answer });
    fixture.setSettings({ channel_failure_threshold: 3 });
    failModel(fixture, 'a', 5);
    failModel(fixture, 'b', 2);
    await sleep(30);
    expect(await fixture.status()).toBe('enabled');
    failModel(fixture, 'b', 1);
    expect(await eventually(async () => (await fixture.status()) === 'auto_disabled')).toBe(true);
    expect(fixture.entries).toContainEqual(
      expect.objectContaining({
        channelId: fixture.channel.id,
        status: 'auto_disabled',
        reason: 'every model failing',
      }),
    );
    expect(await eventually(() => fixture.probes.length >= 2)).toBe(true);
    answer = true;
    expect(await eventually(async () => (await fixture.status()) === 'enabled')).toBe(true);
    expect(fixture.health.report(fixture.channel).models.map((entry) => entry.state)).toEqual([
      'healthy',
      'healthy',
    ]);
  });

  it('a success in between resets the count', async () => {
    const fixture = await setup();
    failModel(fixture, 'a', 3);
    failModel(fixture, 'b', 2);
    fixture.clock.advance(300);
    fixture.health.route([fixture.channel], 'b').next()!.succeeded();
    failModel(fixture, 'b', 2);
    await sleep(30);
    expect(await fixture.status()).toBe('enabled');
  });

  it('an admin enabling the channel again clears what health held against it', async () => {
    const fixture = await setup();
    failModel(fixture, 'a', 3);
    failModel(fixture, 'b', 3);
    expect(await eventually(async () => (await fixture.status()) === 'auto_disabled')).toBe(true);
    await fixture.repositories.channels.update(fixture.channel.id, { status: 'enabled' });
    await fixture.changes.publish('channels');
    expect(fixture.health.report(fixture.channel).models.map((entry) => entry.failures)).toEqual([0, 0]);
    // one more failure of one model does not disable it again at once
    failModel(fixture, 'a', 1);
    await sleep(30);
    expect(await fixture.status()).toBe('enabled');
  });

  it('reads channel_failure_threshold on every failure', async () => {
    const fixture = await setup();
    fixture.setSettings({ channel_failure_threshold: 100 });
    failModel(fixture, 'a', 2);
    failModel(fixture, 'b', 2);
    await sleep(30);
    expect(await fixture.status()).toBe('enabled');
    fixture.setSettings({ channel_failure_threshold: 2 });
    failModel(fixture, 'b', 1);
    expect(await eventually(async () => (await fixture.status()) === 'auto_disabled')).toBe(true);
  });
});

describe('channel changes', () => {
  it('forgets deleted channels and removed keys', async () => {
    const fixture = await setup({ channel: { keys: ['key-one', 'key-two', 'key-three'] } });
    const { health, channel } = fixture;
    health.route([channel], 'a').next()!.refused();
    failModel(fixture, 'a', 1);
    await fixture.repositories.channels.update(channel.id, { keys: ['key-two', 'key-three'] });
    await fixture.changes.publish('channels');
    const edited = await fixture.fresh();
    expect(health.report(edited).keys.map((key) => key.state)).toEqual(['active', 'active']);
    // the same key added back later starts active
    expect(health.report({ ...edited, keys: ['key-one'] }).keys[0]?.state).toBe('active');
    await fixture.repositories.channels.delete(channel.id);
    await fixture.changes.publish('channels');
    expect(health.report(channel).models[0]?.state).toBe('healthy');
  });
});

describe('background failures never escape', () => {
  it('a database blip while auto-disabling is logged, and later failures try again', async () => {
    let failing = true;
    const fixture = await setup({
      channel: { models: ['a'] },
      repository: (repositories) => {
        const channels = repositories.channels;
        return Object.assign(Object.create(channels), {
          transitionStatus: (...args: Parameters<typeof channels.transitionStatus>) =>
            failing ? Promise.reject(new Error('connection reset')) : channels.transitionStatus(...args),
        });
      },
    });
    failModel(fixture, 'a', 3);
    expect(
      await eventually(() => fixture.entries.some((line) => line.msg === 'could not auto-disable channel')),
    ).toBe(true);
    expect(await fixture.status()).toBe('enabled');
    failing = false;
    failModel(fixture, 'a', 1);
    expect(await eventually(async () => (await fixture.status()) === 'auto_disabled')).toBe(true);
  });

  it('a probe that throws, or a database read that fails, keeps the probing going', async () => {
    let calls = 0;
    const fixture = await setup({
      channel: { keys: ['k'] },
      probe: () => {
        calls += 1;
        if (calls === 1) throw new Error('probe blew up');
        return calls >= 3;
      },
      repository: (repositories) => {
        const channels = repositories.channels;
        let finds = 0;
        return Object.assign(Object.create(channels), {
          find: (id: number) => {
            finds += 1;
            return finds === 1 ? Promise.reject(new Error('database gone')) : channels.find(id);
          },
        });
      },
    });
    fixture.health.route([fixture.channel], 'a').next()!.refused();
    expect(await eventually(async () => (await fixture.status()) === 'auto_disabled')).toBe(true);
    expect(await eventually(async () => (await fixture.status()) === 'enabled')).toBe(true);
    expect(fixture.entries.some((line) => line.msg.startsWith('health probe failed'))).toBe(true);
  });

  it('a sync that throws or rejects is logged once per outage, never thrown', async () => {
    let mode: 'throw' | 'reject' | 'ok' = 'throw';
    const sync: HealthSync = {
      publish: (() => {
        if (mode === 'throw') throw new Error('redis gone');
        return mode === 'reject' ? Promise.reject(new Error('redis gone')) : Promise.resolve();
      }) as HealthSync['publish'],
      subscribe: () => undefined,
      close: () => Promise.reject(new Error('already closed')),
    };
    const fixture = await setup({ sync });
    failModel(fixture, 'a', 1);
    mode = 'reject';
    fixture.clock.advance(5);
    failModel(fixture, 'a', 1);
    await sleep(10);
    const warnings = () =>
      fixture.entries.filter((line) => line.msg === 'could not share a channel health change');
    expect(warnings()).toHaveLength(1);
    mode = 'ok';
    fixture.clock.advance(10);
    failModel(fixture, 'a', 1);
    await sleep(10);
    mode = 'reject';
    fixture.clock.advance(20);
    failModel(fixture, 'a', 1);
    await sleep(10);
    expect(warnings()).toHaveLength(2);
    expect(fixture.health.report(fixture.channel).models[0]?.failures).toBe(4);
  });
});
