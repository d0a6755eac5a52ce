import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import {
  callFamily,
  createClients,
  type ClientFamily,
  type MatrixClients,
  type Scenario,
} from './matrix-clients.js';
import { matrixUpstreams, type MatrixUpstream } from './matrix-upstreams.js';
import { upstreamView } from './upstream-view.js';

/**
 * Every client family against every upstream protocol (matrix-upstreams.ts, each on its fake with
 * its own credentials and framing), JSON and streaming, for plain text, tools, thinking and images:
 * the official SDK of the client family must parse everything it gets, and what reached the
 * upstream is checked field by field.
 */
const THINKING = 'Let me think about that.';

const families: ClientFamily[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];
const scenarios: Scenario[] = ['text', 'tools', 'thinking', 'image'];

let gw: TestGateway;
let clients: MatrixClients;
const fakes = new Map<MatrixUpstream, FakeUpstream>();
const fakeOf = (upstream: MatrixUpstream): FakeUpstream => {
  const fake = fakes.get(upstream);
  if (!fake) throw new Error(`no fake for ${upstream.name}`);
  return fake;
};

beforeAll(async () => {
  gw = await startTestGateway();
  for (const upstream of matrixUpstreams) {
    const fake = await upstream.start();
    fakes.set(upstream, fake);
    const created = await gw.admin('POST', '/channels', {
      name: upstream.name,
      ...upstream.channel(fake.origin),
      models: [upstream.model],
      model_mapping: { [upstream.model]: upstream.upstreamModel },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await gw.admin('PUT', `/prices/${upstream.model}`, { input: 1, output: 2 });
  }
  const user = await gw.admin('POST', '/users', { username: 'matrix', balance: 100 });
  const key = await gw.admin('POST', '/keys', { user_id: user.body.id });
  clients = createClients(gw.origin, key.body.key);
});
afterAll(async () => {
  await gw.close();
  for (const fake of fakes.values()) await fake.close();
});
beforeEach(() => {
  for (const fake of fakes.values()) {
    fake.clear();
    fake.scriptAlways({ type: 'reply', toolArguments: '{"city":"Paris"}' });
  }
});

describe.each(families)('%s client', (family) => {
  describe.each(matrixUpstreams)('to $name upstream', (upstream) => {
    describe.each([false, true])('stream %s', (stream) => {
      test.each(scenarios)('%s', async (scenario) => {
        const view = await callFamily({ family, clients, model: upstream.model, scenario, stream });

        const [sent, ...more] = fakeOf(upstream).requests;
        expect(more).toHaveLength(0);
        expect(sent?.refused).toBeUndefined();
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
        const showsReasoning = scenario === 'thinking' && upstream.reasoningVisible(family);
        expect(view.reasoning).toBe(showsReasoning ? THINKING : '');
      });
    });
  });
});
