import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { expect } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import {
  FAKE_AWS_CREDENTIAL,
  FAKE_BEDROCK_API_KEY,
  startFakeBedrock,
  type FakeAwsCredential,
} from '../fakes/fake-bedrock.js';
import type { FakeUpstream, RecordedRequest } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** Temporary credentials (an `ASIA...` key pair with its session token), known to the fake too. */
export const TEMPORARY_CREDENTIAL: Required<FakeAwsCredential> = {
  accessKeyId: 'ASIAFAKETEMPORARY001',
  secretAccessKey: 'temporary/secret+key',
  sessionToken: 'FQoGZXIvYXdzEFAKE//session+token==',
};
/** Channel keys: `ACCESS_KEY_ID:SECRET_ACCESS_KEY[:SESSION_TOKEN]`, or a Bedrock API key. */
export const SIGV4_KEY = `${FAKE_AWS_CREDENTIAL.accessKeyId}:${FAKE_AWS_CREDENTIAL.secretAccessKey}`;
export const SESSION_KEY = `${TEMPORARY_CREDENTIAL.accessKeyId}:${TEMPORARY_CREDENTIAL.secretAccessKey}:${TEMPORARY_CREDENTIAL.sessionToken}`;
export const WRONG_SECRET = 'wrongSecretAccessKeyForTheTests0123456789';
export const WRONG_KEY = `${FAKE_AWS_CREDENTIAL.accessKeyId}:${WRONG_SECRET}`;
export const ANTHROPIC_KEY = 'sk-ant-direct-key';

export const CLAUDE_ID = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
export const CLAUDE_ARN =
  'arn:aws:bedrock:us-east-1:123456789012:application-inference-profile/us.anthropic.claude-sonnet-4-5-20250929-v1:0';
export const NOVA_ID = 'amazon.nova-pro-v1:0';
export const LLAMA_ID = 'meta.llama3-3-70b-instruct-v1:0';

/** Public model -> Bedrock model ID, on the long-term key pair's channel. */
const onKeyPair = {
  'claude-bedrock': CLAUDE_ID,
  'nova-pro': NOVA_ID,
  'llama-3-3': LLAMA_ID,
};

/** Per million tokens. */
const price = { input: 3, output: 15, cached_input: 0.3, cache_write: 3.75 };
/**
 * The fakes report 20 input tokens (8 read from the cache, 4 written to it) and 12 output tokens:
 * (8 x 3 + 8 x 0.3 + 4 x 3.75 + 12 x 15) per million.
 */
export const EXPECTED_COST = 221.4e-6;

export interface BedrockFixture {
  gw: TestGateway;
  bedrock: FakeUpstream;
  /** A direct `anthropic` channel's upstream, serving `claude-shared` after the Bedrock channel. */
  anthropicUpstream: FakeUpstream;
  channels: {
    keyPair: number;
    session: number;
    apiKey: number;
    twoKeys: number;
    wrong: number;
    shared: number;
    direct: number;
  };
  key: string;
  openai: OpenAI;
  anthropic: Anthropic;
  google: GoogleGenAI;
  /** Waits for settlements and the usage writer, then reads the usage log, newest first. */
  logs(): Promise<Record<string, unknown>[]>;
  /** Disables and enables the channel again: its cooldowns and refused keys are forgotten. */
  resetHealth(channelId: number): Promise<void>;
  clear(): void;
  close(): Promise<void>;
}

/**
 * A gateway with `bedrock` channels on one fake Bedrock runtime (a long-term key pair, temporary
 * credentials, a Bedrock API key, a channel with a wrong secret beside a right one, one with only
 * a wrong secret), and a direct `anthropic` channel behind a Bedrock one for failover.
 */
export async function startBedrockFixture(): Promise<BedrockFixture> {
  const bedrock = await startFakeBedrock({ credentials: [FAKE_AWS_CREDENTIAL, TEMPORARY_CREDENTIAL] });
  const anthropicUpstream = await startFakeAnthropic({ apiKey: ANTHROPIC_KEY });
  const gw = await startTestGateway();
  const channel = async (body: Record<string, unknown>) => {
    const created = await gw.admin('POST', '/channels', body);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id as number;
  };
  const onBedrock = { type: 'bedrock', base_url: bedrock.origin, config: { region: 'us-east-1' } };
  const channels = {
    keyPair: await channel({
      ...onBedrock,
      name: 'bedrock key pair',
      keys: [SIGV4_KEY],
      models: Object.keys(onKeyPair),
      model_mapping: onKeyPair,
    }),
    session: await channel({
      ...onBedrock,
      name: 'bedrock session',
      keys: [SESSION_KEY],
      models: ['claude-arn', 'nova-session'],
      model_mapping: { 'claude-arn': CLAUDE_ARN, 'nova-session': NOVA_ID },
    }),
    apiKey: await channel({
      ...onBedrock,
      name: 'bedrock api key',
      keys: [FAKE_BEDROCK_API_KEY],
      models: ['claude-api-key', 'nova-api-key'],
      model_mapping: { 'claude-api-key': CLAUDE_ID, 'nova-api-key': NOVA_ID },
    }),
    twoKeys: await channel({
      ...onBedrock,
      name: 'bedrock two keys',
      keys: [WRONG_KEY, SIGV4_KEY],
      models: ['claude-two-keys'],
      model_mapping: { 'claude-two-keys': CLAUDE_ID },
    }),
    wrong: await channel({
      ...onBedrock,
      name: 'bedrock wrong secret',
      keys: [WRONG_KEY],
      models: ['claude-wrong'],
      model_mapping: { 'claude-wrong': CLAUDE_ID },
    }),
    shared: await channel({
      ...onBedrock,
      name: 'bedrock first',
      keys: [SIGV4_KEY],
      models: ['claude-shared'],
      model_mapping: { 'claude-shared': CLAUDE_ID },
      priority: 10,
    }),
    direct: await channel({
      name: 'anthropic after',
      type: 'anthropic',
      base_url: anthropicUpstream.origin,
      keys: [ANTHROPIC_KEY],
      models: ['claude-shared'],
      model_mapping: { 'claude-shared': 'claude-sonnet-4-5-20250929' },
    }),
  };
  const models = [
    ...Object.keys(onKeyPair),
    'claude-arn',
    'nova-session',
    'claude-api-key',
    'nova-api-key',
    'claude-two-keys',
    'claude-wrong',
    'claude-shared',
  ];
  for (const model of models) await gw.admin('PUT', `/prices/${model}`, price);
  const user = await gw.admin('POST', '/users', { username: 'bedrock-user', balance: 10 });
  const key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key as string;
  return {
    gw,
    bedrock,
    anthropicUpstream,
    channels,
    key,
    openai: new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 }),
    anthropic: new Anthropic({ apiKey: key, baseURL: gw.origin, maxRetries: 0 }),
    google: new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.origin } }),
    async logs() {
      await gw.gateway.services.tracker.settled();
      await gw.gateway.services.ledger.storeRecords();
      return (await gw.admin('GET', '/logs')).body.data;
    },
    async resetHealth(channelId) {
      await gw.admin('PATCH', `/channels/${channelId}`, { status: 'disabled' });
      await gw.admin('PATCH', `/channels/${channelId}`, { status: 'enabled' });
    },
    clear() {
      bedrock.clear();
      anthropicUpstream.clear();
    },
    async close() {
      await gw.close();
      await bedrock.close();
      await anthropicUpstream.close();
    },
  };
}

/** `/model/{encoded model ID}/{operation}`, as Bedrock's path names a model. */
export function bedrockPath(modelId: string, operation: string): string {
  return `/model/${encodeURIComponent(modelId)}/${operation}`;
}

/**
 * What a SigV4-signed call must look like on Bedrock's wire: the path, a signature by the given
 * access key for service `bedrock` in us-east-1, the body's hash, and no credential of another kind.
 */
export function expectSignedRequest(
  received: RecordedRequest | undefined,
  expected: { path: string; accessKeyId: string; sessionToken?: string },
): void {
  expect(received?.url).toBe(expected.path);
  expect(received?.refused).toBeUndefined();
  expect(received?.headers.authorization).toMatch(
    new RegExp(
      `^AWS4-HMAC-SHA256 Credential=${expected.accessKeyId}/\\d{8}/us-east-1/bedrock/aws4_request, `,
    ),
  );
  expect(received?.headers['x-amz-security-token']).toBe(expected.sessionToken);
  expect(received?.headers['x-api-key']).toBeUndefined();
  expect(received?.headers['anthropic-version']).toBeUndefined();
  expect(received?.headers['anthropic-beta']).toBeUndefined();
}

/** The usage record of the newest request: tokens and cost as the fakes report them. */
export async function expectBilled(
  fx: BedrockFixture,
  expected: { model: string; endpoint: string; stream: boolean; channel?: number },
): Promise<void> {
  const [log] = await fx.logs();
  expect(log).toMatchObject({
    model: expected.model,
    endpoint: expected.endpoint,
    stream: expected.stream,
    channel_id: expected.channel ?? fx.channels.keyPair,
    status_code: 200,
    prompt_tokens: 20,
    completion_tokens: 12,
    cached_tokens: 8,
    cache_write_tokens: 4,
    error: null,
  });
  expect(log?.cost).toBeCloseTo(EXPECTED_COST, 12);
}
