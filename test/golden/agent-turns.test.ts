import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { startFakeAnthropic } from '../fakes/fake-anthropic.js';
import { startFakeGemini } from '../fakes/fake-gemini.js';
import { startFakeOpenAI } from '../fakes/fake-openai.js';
import type { FakeUpstream, RecordedRequest } from '../fakes/fake-upstream.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';
import {
  QUESTION,
  questionHistory,
  runTurn,
  TOOL_RESULT,
  toolResultHistory,
  type TurnResult,
} from './agent-clients.js';
import { createClients, type ClientFamily, type MatrixClients } from './matrix-clients.js';

/**
 * Multi-turn agent traffic over every client family x upstream family x JSON/stream, through the
 * official SDKs, against fakes that refuse what the real vendors refuse: thinking and tools across
 * a second turn, Gemini 3 thought signatures, empty and whitespace-only turns, a forced tool
 * choice, and tool calls whose streamed deltas interleave.
 */
const KEY = 'agent-upstream-key';
const PLACEHOLDER_SIGNATURE = 'skip_thought_signature_validator';

type Vendor = 'openai' | 'anthropic' | 'gemini';
const models: Record<Vendor, string> = {
  openai: 'gpt-4o',
  anthropic: 'claude-sonnet-4',
  gemini: 'gemini-3-pro-preview',
};
const families: ClientFamily[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];
const vendors: Vendor[] = ['openai', 'anthropic', 'gemini'];
const ownVendor: Record<ClientFamily, Vendor> = {
  'openai-chat': 'openai',
  'openai-responses': 'openai',
  'anthropic-messages': 'anthropic',
  gemini: 'gemini',
};

let gw: TestGateway;
let clients: MatrixClients;
const fakes = {} as Record<Vendor, FakeUpstream>;

beforeAll(async () => {
  gw = await startTestGateway();
  fakes.openai = await startFakeOpenAI({ apiKey: KEY });
  fakes.anthropic = await startFakeAnthropic({ apiKey: KEY });
  fakes.gemini = await startFakeGemini({ apiKey: KEY });
  for (const vendor of vendors) {
    await gw.admin('POST', '/channels', {
      name: vendor,
      type: vendor,
      base_url: fakes[vendor].origin,
      keys: [KEY],
      models: [models[vendor]],
    });
    await gw.admin('PUT', `/prices/${models[vendor]}`, { input: 1, output: 2 });
  }
  await gw.admin('PATCH', '/settings', { retry_times: 0, channel_failure_threshold: 1000 });
  const user = await gw.admin('POST', '/users', { username: 'agent', balance: 100 });
  const key = await gw.admin('POST', '/keys', { user_id: user.body.id });
  clients = createClients(gw.origin, key.body.key);
});
afterAll(async () => {
  await gw.close();
  for (const vendor of vendors) await fakes[vendor]?.close();
});
beforeEach(() => {
  for (const vendor of vendors) fakes[vendor].clear();
});

type Json = Record<string, any>;

function lastRequest(vendor: Vendor): RecordedRequest {
  const request = fakes[vendor].requests.at(-1);
  if (!request) throw new Error(`nothing reached ${vendor}`);
  expect(request.refused).toBeUndefined();
  return request;
}

/** The Anthropic assistant message holding the last tool calls, and whether thinking was on. */
function anthropicToolTurn(body: Json): { thinking: boolean; blocks: Json[] } {
  const assistant = [...body.messages].reverse().find((message: Json) => message.role === 'assistant');
  return {
    thinking: body.thinking?.type === 'enabled' || body.thinking?.type === 'adaptive',
    blocks: Array.isArray(assistant?.content) ? assistant.content : [],
  };
}

/** The Gemini model content holding the last function calls. */
function geminiCallParts(body: Json): Json[] {
  const model = [...body.contents].reverse().find((content: Json) => content.role === 'model');
  return (model?.parts ?? []).filter((part: Json) => part.functionCall);
}

/** Every text a request body carries to its upstream, wherever the protocol puts it. */
function textsSent(vendor: Vendor, body: Json): string[] {
  if (vendor === 'gemini')
    return body.contents.flatMap((content: Json) =>
      content.parts.filter((part: Json) => 'text' in part).map((part: Json) => part.text),
    );
  if (vendor === 'anthropic')
    return body.messages.flatMap((message: Json) =>
      typeof message.content === 'string'
        ? [message.content]
        : message.content.filter((block: Json) => block.type === 'text').map((block: Json) => block.text),
    );
  if (body.input)
    return body.input.flatMap((item: Json) =>
      typeof item.content === 'string'
        ? [item.content]
        : (item.content ?? [])
            .filter((part: Json) => part.type === 'input_text' || part.type === 'output_text')
            .map((part: Json) => part.text),
    );
  return body.messages.flatMap((message: Json) =>
    typeof message.content === 'string'
      ? [message.content]
      : (message.content ?? []).filter((part: Json) => part.type === 'text').map((part: Json) => part.text),
  );
}

describe.each(families)('%s client', (family) => {
  describe.each(vendors)('to %s upstream', (vendor) => {
    describe.each([false, true])('stream %s', (stream) => {
      const model = models[vendor];
      /** Same family: passed through, and the vendor's own rules apply unchanged. */
      const samePair = ownVendor[family] === vendor;

      test('thinking and tools: the second turn, history echoed as the SDK gave it, is accepted', async () => {
        fakes[vendor].script(
          { type: 'reply', toolArguments: '{"city":"Paris"}' },
          { type: 'reply', toolCall: false, text: 'It is sunny.' },
        );
        const first = await runTurn({ family, clients, model, stream, thinking: true });
        expect(first.toolCalls).toEqual([
          { id: expect.any(String), name: 'get_weather', arguments: { city: 'Paris' } },
        ]);
        if (vendor !== 'openai' || family === 'openai-responses') expect(first.reasoning).not.toBe('');

        const second = await runTurn({
          family,
          clients,
          model,
          stream,
          thinking: true,
          history: [...questionHistory(family), ...first.history, ...toolResultHistory(family, first)],
        });
        expect(second.text).toBe('It is sunny.');

        const sent = lastRequest(vendor).body as Json;
        if (vendor === 'anthropic') {
          // The signed thinking came back through the client's own format: thinking stays on.
          const turn = anthropicToolTurn(sent);
          expect(turn.thinking).toBe(true);
          expect(turn.blocks[0]).toMatchObject({ type: 'thinking', signature: expect.any(String) });
          expect(turn.blocks[0]!.signature).not.toContain(':');
        }
        if (vendor === 'gemini') {
          // Gemini 3: the call goes back with the signature Gemini gave it.
          const [call] = geminiCallParts(sent);
          expect(call?.thoughtSignature).toEqual(expect.any(String));
          expect(call?.thoughtSignature).not.toBe(PLACEHOLDER_SIGNATURE);
          expect(call?.thoughtSignature).not.toContain(':');
        }
      });

      test('a second turn whose signed thinking was lost is still accepted', async () => {
        fakes[vendor].script(
          { type: 'reply', toolArguments: '{"city":"Paris"}' },
          { type: 'reply', toolCall: false, text: 'It is sunny.' },
        );
        const first = await runTurn({ family, clients, model, stream, thinking: true });
        const bare = stripReasoning(family, first);
        const second = runTurn({
          family,
          clients,
          model,
          stream,
          thinking: true,
          history: [...questionHistory(family), ...bare, ...toolResultHistory(family, first)],
        });
        if (samePair && vendor !== 'openai') {
          await expect(second).rejects.toThrow(
            vendor === 'anthropic'
              ? 'a final `assistant` message must start with a thinking block'
              : 'missing a thought_signature',
          );
          return;
        }
        expect((await second).text).toBe('It is sunny.');
        const sent = lastRequest(vendor).body as Json;
        if (vendor === 'anthropic') expect(anthropicToolTurn(sent).thinking).toBe(false);
        if (vendor === 'gemini')
          expect(geminiCallParts(sent)[0]?.thoughtSignature).toBe(PLACEHOLDER_SIGNATURE);
      });

      test.runIf(!samePair)(
        'empty and whitespace-only turns are encoded so the upstream accepts them',
        async () => {
          fakes[vendor].script({ type: 'reply', toolCall: false, text: 'Tomorrow too.' });
          const result = await runTurn({
            family,
            clients,
            model,
            stream,
            thinking: false,
            history: emptyTurns(family),
          });
          expect(result.text).toBe('Tomorrow too.');
          const texts = textsSent(vendor, lastRequest(vendor).body as Json);
          // Anthropic and Gemini refuse empty text (Anthropic whitespace-only too); OpenAI takes it.
          if (vendor !== 'openai') expect(texts.every((text) => text.trim() !== '')).toBe(true);
          expect(texts).toContain('And tomorrow?');
        },
      );

      test("a forced tool choice finishes with the family's tool finish", async () => {
        fakes[vendor].script({ type: 'reply', toolArguments: '{"city":"Paris"}' });
        const result = await runTurn({
          family,
          clients,
          model,
          stream,
          thinking: !samePair,
          forceTool: true,
        });
        expect(result.toolCalls.map((call) => call.arguments)).toEqual([{ city: 'Paris' }]);
        const passthroughChat = family === 'openai-chat' && vendor === 'openai';
        expect(result.finish).toBe(
          {
            // OpenAI's own answer to a forced call passes through unchanged.
            'openai-chat': passthroughChat ? 'stop' : 'tool_calls',
            'openai-responses': 'completed',
            'anthropic-messages': 'tool_use',
            gemini: 'STOP',
          }[family],
        );
        if (vendor === 'anthropic' && !samePair)
          // Anthropic refuses thinking with a forced tool: the forced choice the client asked for wins.
          expect(anthropicToolTurn(lastRequest(vendor).body as Json).thinking).toBe(false);
      });

      test.runIf(vendor === 'openai')(
        'tool calls whose streamed deltas interleave arrive whole',
        async () => {
          fakes.openai.script({
            type: 'reply',
            toolCallCount: 2,
            interleaveToolCalls: true,
            toolArguments: '{"city":"Paris"}',
          });
          const result = await runTurn({ family, clients, model, stream, thinking: false });
          expect(result.toolCalls).toHaveLength(2);
          expect(result.toolCalls.map((call) => call.arguments)).toEqual([
            { city: 'Paris' },
            { city: 'Paris' },
          ]);
          expect(new Set(result.toolCalls.map((call) => call.id)).size).toBe(2);
          expect(result.finish).toBe(
            {
              'openai-chat': 'tool_calls',
              'openai-responses': 'completed',
              'anthropic-messages': 'tool_use',
              gemini: 'STOP',
            }[family],
          );
        },
      );
    });
  });
});

/** The first turn's assistant message with its reasoning and signatures taken out, as a client that keeps only text and calls sends it. */
function stripReasoning(family: ClientFamily, turn: TurnResult): unknown[] {
  switch (family) {
    case 'openai-chat':
      return [
        {
          role: 'assistant',
          content: turn.text || null,
          tool_calls: turn.toolCalls.map((call) => ({
            id: call.id,
            type: 'function',
            function: { name: call.name, arguments: JSON.stringify(call.arguments) },
          })),
        },
      ];
    case 'openai-responses':
      return turn.toolCalls.map((call) => ({
        type: 'function_call',
        call_id: call.id,
        name: call.name,
        arguments: JSON.stringify(call.arguments),
      }));
    case 'anthropic-messages':
      return [
        {
          role: 'assistant',
          content: turn.toolCalls.map((call) => ({
            type: 'tool_use',
            id: call.id,
            name: call.name,
            input: call.arguments,
          })),
        },
      ];
    case 'gemini':
      return [
        {
          role: 'model',
          parts: turn.toolCalls.map((call) => ({
            functionCall: { ...(call.id && { id: call.id }), name: call.name, args: call.arguments },
          })),
        },
      ];
  }
}

/** A history with an empty tool-only assistant turn and a whitespace-only one, then a new question. */
function emptyTurns(family: ClientFamily): unknown[] {
  const next = 'And tomorrow?';
  switch (family) {
    case 'openai-chat':
      return [
        { role: 'user', content: QUESTION },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            {
              id: 'call_1',
              type: 'function',
              function: { name: 'get_weather', arguments: '{"city":"Paris"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: TOOL_RESULT },
        { role: 'assistant', content: '  \n' },
        { role: 'user', content: next },
      ];
    case 'openai-responses':
      return [
        { role: 'user', content: QUESTION },
        { role: 'assistant', content: '' },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', call_id: 'call_1', output: TOOL_RESULT },
        { role: 'assistant', content: '  \n' },
        { role: 'user', content: next },
      ];
    case 'anthropic-messages':
      return [
        { role: 'user', content: QUESTION },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: '' },
            { type: 'tool_use', id: 'toolu_1', name: 'get_weather', input: { city: 'Paris' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: TOOL_RESULT }] },
        { role: 'assistant', content: [{ type: 'text', text: '  \n' }] },
        { role: 'user', content: next },
      ];
    case 'gemini':
      return [
        { role: 'user', parts: [{ text: QUESTION }] },
        {
          role: 'model',
          parts: [{ text: '' }, { functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
        },
        {
          role: 'user',
          parts: [{ functionResponse: { name: 'get_weather', response: { output: TOOL_RESULT } } }],
        },
        { role: 'model', parts: [{ text: '  \n' }] },
        { role: 'user', parts: [{ text: next }] },
      ];
  }
}
