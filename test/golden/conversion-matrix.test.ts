import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import {
  callFamily,
  createClients,
  type ClientFamily,
  type MatrixClients,
  type Scenario,
} from './matrix-clients.js';
import { upstreamView } from './upstream-view.js';

/**
 * Every client family against every upstream family, JSON and streaming, for plain text, tools,
 * thinking and images: the official SDK of the client family must parse everything it gets, and
 * what reached the upstream is checked field by field.
 */
const KEY = 'matrix-upstream-key';
const THINKING = 'Let me think about that.';

interface UpstreamCase {
  type: 'openai' | 'anthropic' | 'gemini';
  model: string;
  upstreamModel: string;
  text: string;
  fake?: FakeUpstream;
}

const upstreams: UpstreamCase[] = [
  { type: 'openai', model: 'gpt-4o', upstreamModel: 'gpt-4o-2024-08-06', text: 'Hello from fake OpenAI.' },
  {
    type: 'anthropic',
    model: 'claude-sonnet-4',
    upstreamModel: 'claude-sonnet-4-20250514',
    text: 'Hello from fake Anthropic.',
  },
  {
    type: 'gemini',
    model: 'gemini-2.5-pro',
    upstreamModel: 'gemini-2.5-pro',
    text: 'Hello from fake Gemini.',
  },
];
const families: ClientFamily[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];
const scenarios: Scenario[] = ['text', 'tools', 'thinking', 'image'];

/** Whether the upstream's reasoning can reach the client: which protocol the gateway speaks upstream. */
function reasoningVisible(family: ClientFamily, upstream: UpstreamCase['type']): boolean {
  if (upstream === 'anthropic' || upstream === 'gemini') return true;
  // An OpenAI channel is reached by chat completions unless the client speaks responses itself;
  // chat completions carries no reasoning text.
  return family === 'openai-responses';
}

let gw: TestGateway;
let clients: MatrixClients;

beforeAll(async () => {
  gw = await startTestGateway();
  const fakes = {
    openai: await startFakeOpenAI({ apiKey: KEY }),
    anthropic: await startFakeAnthropic({ apiKey: KEY }),
    gemini: await startFakeGemini({ apiKey: KEY }),
  };
  for (const upstream of upstreams) {
    upstream.fake = fakes[upstream.type];
    await gw.admin('POST', '/channels', {
      name: upstream.type,
      type: upstream.type,
      base_url: upstream.fake.origin,
      keys: [KEY],
      models: [upstream.model],
      model_mapping: { [upstream.model]: upstream.upstreamModel },
    });
    await gw.admin('PUT', `/prices/${upstream.model}`, { input: 1, output: 2 });
  }
  const user = await gw.admin('POST', '/users', { username: 'matrix', balance: 100 });
  const key = await gw.admin('POST', '/keys', { user_id: user.body.id });
  clients = createClients(gw.origin, key.body.key);
});
afterAll(async () => {
  await gw.close();
  for (const upstream of upstreams) await upstream.fake?.close();
});
beforeEach(() => {
  for (const upstream of upstreams) {
    upstream.fake!.clear();
    upstream.fake!.scriptAlways({ type: 'reply', toolArguments: '{"city":"Paris"}' });
  }
});

describe.each(families)('%s client', (family) => {
  describe.each(upstreams)('to $type upstream', (upstream) => {
    describe.each([false, true])('stream %s', (stream) => {
      test.each(scenarios)('%s', async (scenario) => {
        const view = await callFamily({ family, clients, model: upstream.model, scenario, stream });

        const [sent, ...more] = upstream.fake!.requests;
        expect(more).toHaveLength(0);
        const arrived = upstreamView(sent!);
        expect(arrived.model).toBe(upstream.upstreamModel);
        expect(arrived.stream).toBe(stream);
        expect(arrived.userText).toContain('What is in Paris?');
        expect(arrived.toolNames).toEqual(scenario === 'tools' ? ['get_weather'] : []);
        expect(arrived.imageCount).toBe(scenario === 'image' ? 1 : 0);
        expect(arrived.reasoning).toBe(scenario === 'thinking');

        if (scenario === 'tools') {
          expect(view.toolCalls).toEqual([{ name: 'get_weather', arguments: { city: 'Paris' } }]);
        } else {
          expect(view.text).toBe(upstream.text);
          expect(view.toolCalls).toEqual([]);
        }
        const showsReasoning = scenario === 'thinking' && reasoningVisible(family, upstream.type);
        expect(view.reasoning).toBe(showsReasoning ? THINKING : '');
      });
    });
  });
});
