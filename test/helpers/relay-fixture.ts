import OpenAI from 'openai';
import type { Environment } from '../../src/config/environment.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from './start-test-gateway.js';

export const UPSTREAM_KEY = 'upstream-secret-key';

export interface RelayFixture {
  gw: TestGateway;
  upstream: FakeUpstream;
  channelId: number;
  userId: number;
  keyId: number;
  key: string;
  openai: OpenAI;
  /** Waits for settlements and the usage writer, then reads the usage log, newest first. */
  logs(): Promise<any[]>;
  user(): Promise<any>;
  close(): Promise<void>;
}

/**
 * A gateway with one OpenAI-type channel on a fake upstream, `gpt-4o` priced at 2.50 / 10.00 USD
 * per million tokens (cached input 1.25), a user with a balance and a key, and an OpenAI SDK client.
 */
export async function startRelayFixture(
  options: { balance?: number; key?: Record<string, unknown>; gateway?: Partial<Environment> } = {},
): Promise<RelayFixture> {
  const upstream = await startFakeOpenAI({ apiKey: UPSTREAM_KEY });
  const gw = await startTestGateway(options.gateway);
  const channel = await gw.admin('POST', '/channels', {
    name: 'primary',
    type: 'openai',
    base_url: upstream.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-4o', 'gpt-4o-mini'],
    model_mapping: { 'gpt-4o': 'gpt-4o-2024-08-06' },
  });
  await gw.admin('PUT', '/prices/gpt-4o', { input: 2.5, output: 10, cached_input: 1.25 });
  await gw.admin('PUT', '/prices/gpt-4o-mini', { input: 0.15, output: 0.6 });
  const user = await gw.admin('POST', '/users', { username: 'alice', balance: options.balance ?? 10 });
  const key = await gw.admin('POST', '/keys', { user_id: user.body.id, ...options.key });
  const openai = new OpenAI({ apiKey: key.body.key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
  const settle = async () => {
    await gw.gateway.services.tracker.settled();
    await gw.gateway.services.ledger.storeRecords();
  };
  return {
    gw,
    upstream,
    channelId: channel.body.id,
    userId: user.body.id,
    keyId: key.body.id,
    key: key.body.key,
    openai,
    async logs() {
      await settle();
      return (await gw.admin('GET', '/logs')).body.data;
    },
    async user() {
      await settle();
      return (await gw.admin('GET', `/users/${user.body.id}`)).body;
    },
    async close() {
      await gw.close();
      await upstream.close();
    },
  };
}

/** A second OpenAI-type channel for `gpt-4o`, tried after the fixture's own (priority -1). */
export async function addBackupChannel(
  fx: RelayFixture,
): Promise<{ backup: FakeUpstream; backupId: number }> {
  const backup = await startFakeOpenAI({ apiKey: UPSTREAM_KEY, replyText: 'Hello from the backup.' });
  const channel = await fx.gw.admin('POST', '/channels', {
    name: 'backup',
    type: 'openai',
    base_url: backup.origin,
    keys: [UPSTREAM_KEY],
    models: ['gpt-4o'],
    priority: -1,
  });
  return { backup, backupId: channel.body.id };
}

const ANTHROPIC_KEY = 'anthropic-upstream-key';

/** An Anthropic-type channel on a fake Anthropic upstream for `claude-sonnet-4-5`, priced at 3 / 15 USD. */
export async function addAnthropicChannel(fx: RelayFixture): Promise<FakeUpstream> {
  const anthropic = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY });
  await fx.gw.admin('POST', '/channels', {
    name: 'claude',
    type: 'anthropic',
    base_url: anthropic.origin,
    keys: [ANTHROPIC_KEY],
    models: ['claude-sonnet-4-5'],
  });
  await fx.gw.admin('PUT', '/prices/claude-sonnet-4-5', { input: 3, output: 15 });
  return anthropic;
}

/** Sets the channels healthy again: a channel enabled again starts afresh (cooldowns, refused keys). */
export async function resetChannelHealth(
  fx: RelayFixture,
  channels: readonly { id: number; changes?: Record<string, unknown> }[],
): Promise<void> {
  for (const { id, changes } of channels) {
    await fx.gw.admin('PATCH', `/channels/${id}`, { status: 'disabled' });
    await fx.gw.admin('PATCH', `/channels/${id}`, { status: 'enabled', ...changes });
  }
}
