import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startFakeOpenAICompatible } from '../fakes/fake-openai-compatible.js';
import type { FakeUpstream } from '../fakes/fake-upstream.js';
import { bearer, send } from '../helpers/client-request.js';
import { startTestGateway, type TestGateway } from '../helpers/start-test-gateway.js';

/** OpenAI-compatible preset channel types (admin-api section 5) against fakes at each vendor's paths. */

const THINKING = 'Let me think about that.';
const TEXT = 'Hello from a fake OpenAI-compatible vendor.';

interface Preset {
  type: string;
  model: string;
  upstreamModel: string;
  /** Keys of the channel; none for a keyless local server, or no `keys` member at all (undefined). */
  keys: string[] | undefined;
  /** Where the vendor serves chat completions, and the channel's base_url below it. */
  chatPath: string;
  baseUrlPath: string;
  fake: Parameters<typeof startFakeOpenAICompatible>[0];
}

const presets: Preset[] = [
  {
    type: 'deepseek',
    model: 'deepseek-reasoner',
    upstreamModel: 'deepseek-reasoner',
    keys: ['sk-deepseek'],
    chatPath: '/v1/chat/completions',
    baseUrlPath: '',
    fake: { apiKey: 'sk-deepseek', reasoningField: 'reasoning_content', deepseekThinking: true },
  },
  {
    type: 'openrouter',
    model: 'r1-free',
    upstreamModel: 'deepseek/deepseek-r1:free',
    keys: ['sk-or-v1-openrouter'],
    chatPath: '/api/v1/chat/completions',
    baseUrlPath: '/api',
    fake: { apiKey: 'sk-or-v1-openrouter', apiRoot: '/api/v1', reasoningField: 'reasoning' },
  },
  {
    type: 'zhipu',
    model: 'glm-4.6',
    upstreamModel: 'glm-4.6',
    keys: ['zhipu-id.secret'],
    chatPath: '/api/paas/v4/chat/completions',
    baseUrlPath: '/api/paas',
    fake: { apiKey: 'zhipu-id.secret', apiRoot: '/api/paas/v4' },
  },
  {
    type: 'ollama',
    model: 'llama3.2',
    upstreamModel: 'llama3.2:3b',
    keys: undefined,
    chatPath: '/v1/chat/completions',
    baseUrlPath: '',
    fake: { keyless: true },
  },
  {
    type: 'vllm',
    model: 'qwen3-8b',
    upstreamModel: 'Qwen/Qwen3-8B',
    keys: [],
    chatPath: '/v1/chat/completions',
    baseUrlPath: '',
    fake: { keyless: true, reasoningField: 'reasoning_content' },
  },
];

let gw: TestGateway;
const fakes = new Map<string, FakeUpstream>();
const channelIds = new Map<string, number>();
let key: string;
let openai: OpenAI;
let anthropic: Anthropic;
let google: GoogleGenAI;

beforeAll(async () => {
  gw = await startTestGateway();
  for (const preset of presets) {
    const fake = await startFakeOpenAICompatible(preset.fake);
    fakes.set(preset.type, fake);
    const created = await gw.admin('POST', '/channels', {
      name: preset.type,
      type: preset.type,
      base_url: fake.origin + preset.baseUrlPath,
      ...(preset.keys && { keys: preset.keys }),
      models: [preset.model],
      model_mapping: { [preset.model]: preset.upstreamModel },
    });
    expect(created.status).toBe(201);
    channelIds.set(preset.type, created.body.id);
    await gw.admin('PUT', `/prices/${preset.model}`, { input: 1, output: 2 });
  }
  const user = await gw.admin('POST', '/users', { username: 'preset-user', balance: 10 });
  key = (await gw.admin('POST', '/keys', { user_id: user.body.id })).body.key;
  openai = new OpenAI({ apiKey: key, baseURL: `${gw.origin}/v1`, maxRetries: 0 });
  anthropic = new Anthropic({ apiKey: key, baseURL: gw.origin, maxRetries: 0 });
  google = new GoogleGenAI({ apiKey: key, httpOptions: { baseUrl: gw.origin } });
});

afterAll(async () => {
  await gw?.close();
  for (const fake of fakes.values()) await fake.close();
});

beforeEach(() => {
  for (const fake of fakes.values()) fake.clear();
});

const fakeOf = (type: string) => fakes.get(type)!;
const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
  { role: 'user', content: 'Why is the sky blue?' },
];

describe('the wire of each preset', () => {
  it.each(presets)('$type: chat at $chatPath, the key as Bearer or none', async (preset) => {
    const completion = await openai.chat.completions.create({ model: preset.model, messages });
    expect(completion.choices[0]?.message.content).toBe(TEXT);
    const requests = fakeOf(preset.type).requests;
    expect(requests).toHaveLength(1);
    expect(requests[0]?.url).toBe(preset.chatPath);
    expect(requests[0]?.headers.authorization).toBe(
      preset.keys?.[0] === undefined ? undefined : `Bearer ${preset.keys[0]}`,
    );
    expect(requests[0]?.body).toMatchObject({ model: preset.upstreamModel, messages });
    expect(requests[0]?.refused).toBeUndefined();
  });
});

describe('a Responses client on a deepseek channel', () => {
  it('is converted to chat completions, the thinking returned as reasoning', async () => {
    const response = await openai.responses.create({
      model: 'deepseek-reasoner',
      input: 'Why is the sky blue?',
    });
    expect(response.output_text).toBe(TEXT);
    const reasoning = response.output.find((item) => item.type === 'reasoning');
    expect(reasoning?.type === 'reasoning' && reasoning.summary.map((part) => part.text).join('')).toBe(
      THINKING,
    );
    const [received] = fakeOf('deepseek').requests;
    expect(received?.path).toBe('/v1/chat/completions');
    expect(received?.body).toMatchObject({
      model: 'deepseek-reasoner',
      messages: [{ role: 'user', content: 'Why is the sky blue?' }],
    });
    expect(received?.refused).toBeUndefined();
    await gw.gateway.services.tracker.settled();
    await gw.gateway.services.ledger.storeRecords();
    const [log] = (await gw.admin('GET', '/logs')).body.data;
    expect(log).toMatchObject({ model: 'deepseek-reasoner', endpoint: 'responses', status_code: 200 });
  });
});

describe.each([
  { type: 'deepseek', model: 'deepseek-reasoner', field: 'reasoning_content' },
  { type: 'openrouter', model: 'r1-free', field: 'reasoning' },
])('reasoning returned as $field ($type)', ({ type, model }) => {
  const thinkingRequest: Anthropic.MessageCreateParamsNonStreaming = {
    model,
    max_tokens: 4096,
    thinking: { type: 'enabled', budget_tokens: 2048 },
    messages: [{ role: 'user', content: 'Why is the sky blue?' }],
  };

  it('reaches an Anthropic client as a thinking block before the text', async () => {
    const message = await anthropic.messages.create(thinkingRequest);
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: THINKING });
    expect(message.content[1]).toMatchObject({ type: 'text', text: TEXT });
    expect(fakeOf(type).requests[0]?.path).toMatch(/\/chat\/completions$/);
  });

  it('streams to an Anthropic client as a thinking block', async () => {
    const message = await anthropic.messages.stream(thinkingRequest).finalMessage();
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: THINKING });
    expect(message.content[1]).toMatchObject({ type: 'text', text: TEXT });
  });

  it('reaches a Gemini client as a thought part, JSON and stream', async () => {
    const request = {
      model,
      contents: 'Why is the sky blue?',
      config: { thinkingConfig: { includeThoughts: true } },
    };
    const reply = await google.models.generateContent(request);
    expect(reply.candidates?.[0]?.content?.parts).toEqual([
      expect.objectContaining({ text: THINKING, thought: true }),
      expect.objectContaining({ text: TEXT }),
    ]);
    let thoughts = '';
    let text = '';
    for await (const chunk of await google.models.generateContentStream(request))
      for (const part of chunk.candidates?.[0]?.content?.parts ?? [])
        if (part.thought) thoughts += part.text ?? '';
        else text += part.text ?? '';
    expect(thoughts).toBe(THINKING);
    expect(text).toBe(TEXT);
  });
});

describe.each([
  { type: 'deepseek', model: 'deepseek-reasoner', field: 'reasoning_content' },
  { type: 'openrouter', model: 'r1-free', field: 'reasoning' },
])('thinking sent back as $field ($type)', ({ type, model, field }) => {
  const tools: Anthropic.Tool[] = [
    {
      name: 'get_weather',
      description: 'Weather of a city.',
      input_schema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] },
    },
  ];
  const thinking = { type: 'enabled', budget_tokens: 2048 } as const;
  const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
  const sentMessages = (index: number) =>
    (fakeOf(type).requests[index]?.body as { messages: unknown }).messages;

  /** One tool round trip of an Anthropic client: the history it sends on, and the final answer. */
  async function toolRoundTrip() {
    const first = await anthropic.messages.create({
      model,
      max_tokens: 4096,
      thinking,
      tools,
      messages: [question],
    });
    expect(first.content.map((block) => block.type)).toEqual(['thinking', 'tool_use']);
    const call = first.content.find((block) => block.type === 'tool_use');
    if (!call) throw new Error('no tool call');
    const history: Anthropic.MessageParam[] = [
      question,
      { role: 'assistant', content: first.content },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: call.id, content: 'Sunny, 24°C' }] },
    ];
    fakeOf(type).script({ type: 'reply', toolCall: false });
    const answer = await anthropic.messages
      .stream({ model, max_tokens: 4096, thinking, tools, messages: history })
      .finalMessage();
    return { call, history, answer };
  }

  it('an Anthropic client doing a tool round trip: the upstream gets the reasoning of the tool call back', async () => {
    const { call, answer } = await toolRoundTrip();
    expect(answer.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(fakeOf(type).requests[1]?.refused).toBeUndefined();
    expect(sentMessages(1)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      {
        role: 'assistant',
        content: null,
        [field]: THINKING,
        tool_calls: [
          {
            id: call.id,
            type: 'function',
            function: { name: 'get_weather', arguments: '{"query":"weather in Paris"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: call.id, content: 'Sunny, 24°C' },
    ]);
  });

  it('a later user turn still carries the reasoning of the earlier tool loop', async () => {
    const { history, answer } = await toolRoundTrip();
    const next: Anthropic.MessageParam[] = [
      ...history,
      { role: 'assistant', content: answer.content },
      { role: 'user', content: 'And in Rome?' },
    ];
    fakeOf(type).script({ type: 'reply', toolCall: false });
    const reply = await anthropic.messages.create({
      model,
      max_tokens: 4096,
      thinking,
      tools,
      messages: next,
    });
    expect(reply.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(fakeOf(type).requests[2]?.refused).toBeUndefined();
    const assistants = (sentMessages(2) as Record<string, unknown>[]).filter(
      (message) => message.role === 'assistant',
    );
    expect(assistants.map((message) => message[field])).toEqual([THINKING, THINKING]);
  });

  it('a conversation without tools: DeepSeek gets no reasoning back, OpenRouter every turn of it', async () => {
    const first = await anthropic.messages.create({
      model,
      max_tokens: 4096,
      thinking,
      messages: [question],
    });
    const reply = await anthropic.messages.create({
      model,
      max_tokens: 4096,
      thinking,
      messages: [
        question,
        { role: 'assistant', content: first.content },
        { role: 'user', content: 'And in Rome?' },
      ],
    });
    expect(reply.content.map((block) => block.type)).toEqual(['thinking', 'text']);
    expect(fakeOf(type).requests[1]?.refused).toBeUndefined();
    // DeepSeek takes reasoning back only for turns with tool calls; OpenRouter for every turn.
    expect(sentMessages(1)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: TEXT, ...(type === 'openrouter' && { reasoning: THINKING }) },
      { role: 'user', content: 'And in Rome?' },
    ]);
  });
});

describe('the deepseek fake holds histories to the thinking-mode rules', () => {
  const post = (messages: unknown[]) =>
    send(fakeOf('deepseek').origin, '/v1/chat/completions', {
      method: 'POST',
      headers: bearer('sk-deepseek'),
      body: { model: 'deepseek-reasoner', messages },
    });

  it('refuses reasoning_content on a turn without tool calls, and a tool call without it', async () => {
    const plain = await post([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello', reasoning_content: 'Greet back.' },
      { role: 'user', content: 'How are you?' },
    ]);
    expect(plain.status).toBe(400);
    expect(plain.body.error.message).toMatch(
      /reasoning_content is only taken back for the turns with tool calls/,
    );
    const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } };
    const missing = await post([
      { role: 'user', content: 'Weather?' },
      { role: 'assistant', content: null, tool_calls: [call] },
      { role: 'tool', tool_call_id: 'call_1', content: 'Sunny' },
    ]);
    expect(missing.status).toBe(400);
    expect(missing.body.error.message).toBe(
      'The `reasoning_content` in the thinking mode must be passed back to the API.',
    );
  });
});

describe('the channel test and the model list', () => {
  it.each(['ollama', 'vllm'])(
    'POST /api/channels/{id}/test works for a keyless %s channel, sending no key',
    async (type) => {
      const probe = await gw.admin('POST', `/channels/${channelIds.get(type)}/test`);
      expect(probe.body).toMatchObject({ ok: true, error: null });
      const [received] = fakeOf(type).requests;
      expect(received?.path).toBe('/v1/chat/completions');
      expect(received?.headers.authorization).toBeUndefined();
      const preset = presets.find((each) => each.type === type)!;
      expect(received?.body).toMatchObject({ model: preset.upstreamModel });
    },
  );

  it.each(['ollama', 'vllm'])('a keyless %s channel reads back with no keys', async (type) => {
    const read = await gw.admin('GET', `/channels/${channelIds.get(type)}`);
    expect(read.body.keys).toEqual([]);
  });

  it('a failing ollama server makes the test not ok', async () => {
    fakeOf('ollama').script({ type: 'error', status: 500, message: 'model "llama3.2:3b" not found' });
    const probe = await gw.admin('POST', `/channels/${channelIds.get('ollama')}/test`);
    expect(probe.body).toMatchObject({ ok: false, error: 'HTTP 500: model "llama3.2:3b" not found' });
  });

  it('GET /v1/models lists preset models for openai clients, owned by their type', async () => {
    const list = await send(gw.origin, '/v1/models', { headers: bearer(key) });
    const find = (id: string) => list.body.data.find((model: { id: string }) => model.id === id);
    for (const preset of presets)
      expect(find(preset.model)).toMatchObject({
        id: preset.model,
        owned_by: preset.type,
        supported_endpoint_types: ['openai'],
      });
  });
});
