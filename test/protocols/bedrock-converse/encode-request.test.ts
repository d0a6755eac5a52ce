import { describe, expect, it } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import type { CanonicalRequest } from '../../../src/ir/request.js';
import { encodeRequest } from '../../../src/protocols/bedrock-converse/encode-request.js';
import { codec, fixtureJson } from './helpers.js';

const CLAUDE = 'us.anthropic.claude-sonnet-4-5-20250929-v1:0';
const NOVA_2 = 'us.amazon.nova-2-lite-v1:0';

function encode(request: Partial<CanonicalRequest>, losses = new LossLog()) {
  return encodeRequest(
    { model: CLAUDE, system: [], messages: [], tools: [], stream: false, extensions: {}, ...request },
    { losses, defaultMaxTokens: 8192 },
  );
}

const ask = (text: string) => ({ role: 'user' as const, parts: [{ type: 'text' as const, text }] });

describe('bedrock converse request encoder', () => {
  it('writes request-claude-tools.json back as it came, for a Claude model', () => {
    const fixture = fixtureJson('request-claude-tools.json');
    const losses = new LossLog();
    const request = codec.decodeRequest(fixture, { losses, model: CLAUDE, stream: true });
    const body = codec.encodeRequest(request, { losses, defaultMaxTokens: 8192 });
    expect(body).toEqual(fixture);
    expect(losses.losses).toEqual([]);
  });

  it('writes request-nova.json back for Nova 2, its text document as bytes', () => {
    const fixture = fixtureJson('request-nova.json');
    const losses = new LossLog();
    const body = encodeRequest(codec.decodeRequest(fixture, { losses, model: NOVA_2 }), {
      losses,
      defaultMaxTokens: 8192,
    });
    const [first] = body.messages;
    expect(first?.content[1]).toEqual({
      document: {
        format: 'md',
        name: 'notes',
        source: { bytes: Buffer.from('# Harbour\nBoats at dawn.').toString('base64') },
      },
    });
    const expected = structuredClone(fixture) as { messages: { content: unknown[] }[] };
    expected.messages[0]!.content[1] = first?.content[1];
    expect(body).toEqual(expected);
    expect(losses.losses).toEqual([]);
  });

  it('never writes the model or the stream flag: both travel in the path', () => {
    const body = encode({ messages: [ask('hi')], stream: true, maxOutputTokens: 10 });
    expect(body).toEqual({
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      inferenceConfig: { maxTokens: 10 },
    });
  });

  it('Claude: an effort becomes a thinking budget under the default cap, and thinking rules out some sampling', () => {
    const losses = new LossLog();
    const body = encode(
      { messages: [ask('hi')], reasoning: { effort: 'high' }, temperature: 0.5, topP: 0.9, topK: 5 },
      losses,
    );
    expect(body.additionalModelRequestFields).toEqual({
      thinking: { type: 'enabled', budget_tokens: 8191 },
    });
    expect(body.inferenceConfig).toEqual({ maxTokens: 8192 });
    expect(losses.losses.map((loss) => loss.path)).toEqual([
      'reasoning.budgetTokens',
      'topK',
      'temperature',
      'topP',
    ]);
  });

  it('Claude: the request’s own outputConfig.effort stays an effort; effort none turns thinking off', () => {
    const kept = encode({
      messages: [ask('hi')],
      reasoning: { effort: 'medium' },
      extensions: { 'bedrock-converse': { outputConfig: { effort: 'medium' } } },
    });
    expect(kept.outputConfig).toEqual({ effort: 'medium' });
    expect(kept.additionalModelRequestFields).toBeUndefined();
    const off = encode({ messages: [ask('hi')], reasoning: { effort: 'none' } });
    expect(off.additionalModelRequestFields).toEqual({ thinking: { type: 'disabled' } });
  });

  it('Claude: thinking gives way to a forced tool choice and to a tool loop without signed reasoning', () => {
    const tools = [{ type: 'function' as const, name: 'f', parameters: { type: 'object' } }];
    const forced = new LossLog();
    const body = encode(
      {
        messages: [ask('hi')],
        tools,
        toolChoice: { type: 'tool', name: 'f' },
        reasoning: { budgetTokens: 2000 },
      },
      forced,
    );
    expect(body.additionalModelRequestFields).toBeUndefined();
    expect(forced.losses.map((loss) => loss.reason)).toEqual([
      'Claude does not think when the tool choice forces tool use: thinking off, the forced tool choice kept',
    ]);
    const loop = new LossLog();
    const looped = encode(
      {
        messages: [
          ask('weather?'),
          { role: 'assistant', parts: [{ type: 'tool-call', id: 't', name: 'f', arguments: '{}' }] },
          {
            role: 'tool',
            parts: [{ type: 'tool-result', toolCallId: 't', content: [{ type: 'text', text: 'sun' }] }],
          },
        ],
        tools,
        reasoning: { enabled: true },
      },
      loop,
    );
    expect(looped.additionalModelRequestFields).toBeUndefined();
    expect(loop.losses.map((loss) => `${loss.kind} ${loss.path}`)).toEqual([
      'coerced reasoning.budgetTokens',
      'dropped reasoning',
    ]);
  });

  it('Claude: reasoning it did not sign is left out; Anthropic’s signature and redacted content go back', () => {
    const losses = new LossLog();
    const body = encode(
      {
        messages: [
          ask('q'),
          {
            role: 'assistant',
            parts: [
              { type: 'reasoning', text: 'unsigned' },
              { type: 'reasoning', text: 'signed', signature: { issuer: 'anthropic', value: 'EqQB' } },
              { type: 'reasoning', text: '', redactedData: { issuer: 'anthropic', value: 'RVVj' } },
              { type: 'text', text: 'a' },
            ],
          },
        ],
      },
      losses,
    );
    expect(body.messages[1]?.content).toEqual([
      { reasoningContent: { reasoningText: { text: 'signed', signature: 'EqQB' } } },
      { reasoningContent: { redactedContent: 'RVVj' } },
      { text: 'a' },
    ]);
    expect(losses.losses.map((loss) => loss.reason)).toEqual([
      'Claude refuses reasoning without its signature',
    ]);
  });

  it('Nova 2 takes efforts low to high; Nova 1 and unknown families take no reasoning or top-k', () => {
    const nova2 = new LossLog();
    expect(
      encode({ model: NOVA_2, messages: [ask('x')], reasoning: { effort: 'xhigh' }, topK: 9 }, nova2)
        .additionalModelRequestFields,
    ).toEqual({
      inferenceConfig: { topK: 9 },
      reasoningConfig: { type: 'enabled', maxReasoningEffort: 'high' },
    });
    expect(nova2.losses.map((loss) => loss.kind)).toEqual(['coerced']);
    expect(
      encode({ model: NOVA_2, messages: [ask('x')], reasoning: { enabled: false } })
        .additionalModelRequestFields,
    ).toEqual({
      reasoningConfig: { type: 'disabled' },
    });
    const nova1 = new LossLog();
    expect(
      encode({ model: 'amazon.nova-pro-v1:0', messages: [ask('x')], reasoning: { effort: 'low' } }, nova1)
        .additionalModelRequestFields,
    ).toBeUndefined();
    expect(nova1.losses.map((loss) => loss.path)).toEqual(['reasoning']);
    const other = new LossLog();
    const profile = 'arn:aws:bedrock:us-east-1:111122223333:application-inference-profile/a1b2c3';
    expect(
      encode({ model: profile, messages: [ask('x')], reasoning: { effort: 'low' }, topK: 3 }, other),
    ).not.toHaveProperty('additionalModelRequestFields');
    expect(other.losses.map((loss) => loss.path)).toEqual(['topK', 'reasoning']);
  });

  it('tool choice none: the tools are left out, unless the conversation used tools; then auto', () => {
    const tools = [{ type: 'function' as const, name: 'f', parameters: { type: 'object' } }];
    expect(encode({ messages: [ask('x')], tools, toolChoice: { type: 'none' } })).not.toHaveProperty(
      'toolConfig',
    );
    const body = encode({
      messages: [
        ask('x'),
        { role: 'assistant', parts: [{ type: 'tool-call', id: 't', name: 'f', arguments: '{}' }] },
        {
          role: 'tool',
          parts: [{ type: 'tool-result', toolCallId: 't', content: [{ type: 'text', text: 'ok' }] }],
        },
      ],
      tools,
      toolChoice: { type: 'none' },
    });
    expect(body.toolConfig).toEqual({
      tools: [{ toolSpec: { name: 'f', inputSchema: { json: { type: 'object' } } } }],
    });
  });

  it('a conversation that used tools no longer offered gets placeholder specifications', () => {
    const losses = new LossLog();
    const body = encode(
      {
        messages: [
          ask('x'),
          { role: 'assistant', parts: [{ type: 'tool-call', id: 't', name: 'search', arguments: '{}' }] },
          {
            role: 'tool',
            parts: [{ type: 'tool-result', toolCallId: 't', content: [{ type: 'text', text: 'ok' }] }],
          },
        ],
      },
      losses,
    );
    expect(body.toolConfig).toEqual({
      tools: [
        {
          toolSpec: {
            name: 'search',
            description: 'A tool used earlier in this conversation.',
            inputSchema: { json: { type: 'object' } },
          },
        },
      ],
    });
    expect(losses.losses.map((loss) => `${loss.kind} ${loss.path}`)).toEqual(['coerced tools']);
  });

  it('a JSON schema response format is outputConfig.textFormat with the schema as JSON text', () => {
    const losses = new LossLog();
    const body = encode(
      {
        messages: [ask('x')],
        responseFormat: { type: 'json-schema', name: 'answer', schema: { type: 'object' }, strict: false },
      },
      losses,
    );
    expect(body.outputConfig).toEqual({
      textFormat: {
        type: 'json_schema',
        structure: { jsonSchema: { schema: '{"type":"object"}', name: 'answer' } },
      },
    });
    expect(losses.losses.map((loss) => loss.path)).toEqual(['responseFormat.strict']);
  });
});
