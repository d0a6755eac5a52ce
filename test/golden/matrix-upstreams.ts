import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { FAKE_AWS_CREDENTIAL, startFakeBedrock } from '../fakes/fake-bedrock.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import type { ClientFamily } from './matrix-clients.js';

const KEY = 'matrix-upstream-key';

/**
 * One upstream the conversion matrix drives every client family against: a channel type on its
 * fake, with the credentials and `config` that fake takes (an API key, or an AWS key pair that
 * signs each request), and the wire protocol the gateway speaks to it for `upstreamModel`.
 */
export interface MatrixUpstream {
  /** The row's name: the upstream protocol, and the transport where it is not the vendor's own. */
  name: string;
  model: string;
  upstreamModel: string;
  text: string;
  start(): Promise<FakeUpstream>;
  /** The channel's `type`, `keys` and `config` for a fake at `origin`. */
  channel(origin: string): {
    type: string;
    base_url: string;
    keys: string[];
    config?: Record<string, unknown>;
  };
  /** Whether the upstream's reasoning reaches a client of `family` in the thinking scenario. */
  reasoningVisible(family: ClientFamily): boolean;
}

const withApiKey = (type: string) => (origin: string) => ({ type, base_url: origin, keys: [KEY] });
const onBedrock = (origin: string) => ({
  type: 'bedrock',
  base_url: origin,
  keys: [`${FAKE_AWS_CREDENTIAL.accessKeyId}:${FAKE_AWS_CREDENTIAL.secretAccessKey}`],
  config: { region: 'us-east-1' },
});

export const matrixUpstreams: readonly MatrixUpstream[] = [
  {
    name: 'openai',
    model: 'gpt-4o',
    upstreamModel: 'gpt-4o-2024-08-06',
    text: 'Hello from fake OpenAI.',
    start: () => startFakeOpenAI({ apiKey: KEY }),
    channel: withApiKey('openai'),
    // An OpenAI channel is reached by chat completions unless the client speaks responses itself;
    // chat completions carries no reasoning text.
    reasoningVisible: (family) => family === 'openai-responses',
  },
  {
    name: 'anthropic',
    model: 'claude-sonnet-4',
    upstreamModel: 'claude-sonnet-4-20250514',
    text: 'Hello from fake Anthropic.',
    start: () => startFakeAnthropic({ apiKey: KEY }),
    channel: withApiKey('anthropic'),
    reasoningVisible: () => true,
  },
  {
    name: 'gemini',
    model: 'gemini-2.5-pro',
    upstreamModel: 'gemini-2.5-pro',
    text: 'Hello from fake Gemini.',
    start: () => startFakeGemini({ apiKey: KEY }),
    channel: withApiKey('gemini'),
    reasoningVisible: () => true,
  },
  {
    // Claude on Bedrock: the Anthropic protocol over InvokeModel, SigV4-signed, event-stream framed.
    name: 'anthropic on bedrock',
    model: 'claude-on-bedrock',
    upstreamModel: 'us.anthropic.claude-sonnet-4-5-20250929-v1:0',
    text: 'Hello from fake Bedrock.',
    start: () => startFakeBedrock(),
    channel: onBedrock,
    reasoningVisible: () => true,
  },
  {
    // Every other Bedrock model: the Converse protocol. Nova 2 has a reasoning switch
    // (`reasoningConfig`), but its reasoning text is not part of the fake's answer.
    name: 'bedrock-converse',
    model: 'nova-2-lite',
    upstreamModel: 'us.amazon.nova-2-lite-v1:0',
    text: 'Hello from fake Bedrock.',
    start: () => startFakeBedrock(),
    channel: onBedrock,
    reasoningVisible: () => false,
  },
];
