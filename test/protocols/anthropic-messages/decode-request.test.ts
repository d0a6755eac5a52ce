import { describe, expect, it } from 'vitest';
import { GatewayError } from '../../../src/errors/gateway-error.js';
import { LossLog } from '../../../src/ir/loss.js';
import { anthropicMessagesCodec as codec } from '../../../src/protocols/anthropic-messages/codec.js';
import { readJsonFixture } from './helpers.js';

function decode(body: Record<string, unknown>, context: { model?: string; stream?: boolean } = {}) {
  const losses = new LossLog();
  return { request: codec.decodeRequest(body, { losses, ...context }), losses: losses.losses };
}

const minimal = { model: 'claude-test', max_tokens: 100, messages: [{ role: 'user', content: 'Hi' }] };

describe('decodeRequest: a Claude Code request', () => {
  const { request, losses } = decode(readJsonFixture('request-claude-code.json'));

  it('keeps the scalars and the stream flag', () => {
    expect(request.model).toBe('claude-sonnet-4-5');
    expect(request.maxOutputTokens).toBe(32000);
    expect(request.stream).toBe(true);
    expect(request.user).toBe('user_2f1c_account_7a3e_session_9b0d');
    expect(losses).toEqual([]);
  });

  it('reads system text blocks with their cache markers', () => {
    expect(request.system).toEqual([
      { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
      {
        type: 'text',
        text: 'Here is useful information about the environment you are running in: <env>Working directory: /work</env>',
        cacheControl: { type: 'ephemeral' },
      },
    ]);
  });

  it('splits user turns into tool results first, then the rest', () => {
    expect(request.messages.map((message) => message.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'user',
      'assistant',
      'user',
    ]);
  });

  it('reads text, images and documents of a user turn', () => {
    expect(request.messages[0]?.parts).toEqual([
      { type: 'text', text: '<system-reminder>As you answer, use the tools.</system-reminder>' },
      {
        type: 'file',
        mediaType: 'image/png',
        source: {
          kind: 'base64',
          data: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
        },
      },
      {
        type: 'file',
        mediaType: 'application/pdf',
        source: { kind: 'base64', data: 'JVBERi0xLjQK' },
        filename: 'spec.pdf',
      },
      {
        type: 'text',
        text: 'Which files mention the gateway? Résumé: 漢字 🚀',
        cacheControl: { type: 'ephemeral', ttl: '1h' },
      },
    ]);
  });

  it('reads signed and redacted thinking and parallel tool calls with their arguments as JSON text', () => {
    expect(request.messages[1]?.parts).toEqual([
      {
        type: 'reasoning',
        text: 'I should search the repository.',
        signature: { issuer: 'anthropic', value: 'EqQBCkYIBxgCKkBvb3RoZXJzaWduYXR1cmU=' },
      },
      {
        type: 'reasoning',
        text: '',
        redactedData: {
          issuer: 'anthropic',
          value: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP',
        },
      },
      { type: 'text', text: "I'll look for it." },
      {
        type: 'tool-call',
        id: 'toolu_01A09q90qw90lq917835lq9',
        name: 'Grep',
        arguments: '{"pattern":"gateway","path":"/work","output_mode":"files_with_matches"}',
      },
      {
        type: 'tool-call',
        id: 'toolu_01B19q90qw90lq917835lq9',
        name: 'Read',
        arguments: '{"file_path":"/work/README.md"}',
      },
    ]);
  });

  it('reads tool results with string or block content, is_error and cache_control', () => {
    expect(request.messages[2]?.parts).toEqual([
      {
        type: 'tool-result',
        toolCallId: 'toolu_01A09q90qw90lq917835lq9',
        content: [{ type: 'text', text: 'src/gateway.ts\nREADME.md' }],
      },
      {
        type: 'tool-result',
        toolCallId: 'toolu_01B19q90qw90lq917835lq9',
        content: [
          { type: 'text', text: 'No such file' },
          { type: 'text', text: '(exit code 2)' },
        ],
        isError: true,
        cacheControl: { type: 'ephemeral' },
      },
    ]);
    expect(request.messages[3]?.parts).toEqual([{ type: 'text', text: 'Also search the web.' }]);
  });

  it('keeps server tool blocks raw and citations as a text extension', () => {
    const parts = request.messages[4]?.parts ?? [];
    expect(parts.map((part) => part.type)).toEqual(['raw', 'raw', 'text']);
    expect(parts[0]).toMatchObject({
      protocol: 'anthropic-messages',
      value: { type: 'server_tool_use', name: 'web_search' },
    });
    expect(parts[1]).toMatchObject({ value: { type: 'web_search_tool_result' } });
    expect(parts[2]).toMatchObject({
      text: 'A gateway routes requests.',
      extensions: { 'anthropic-messages': { citations: [{ type: 'web_search_result_location' }] } },
    });
  });

  it('reads custom tools, keeps their extra fields by name, and keeps server tools whole', () => {
    expect(request.tools).toEqual([
      {
        type: 'function',
        name: 'Grep',
        description: 'A powerful search tool built on ripgrep',
        parameters: {
          type: 'object',
          properties: { pattern: { type: 'string' }, path: { type: 'string' } },
          required: ['pattern'],
          additionalProperties: false,
          $schema: 'http://json-schema.org/draft-07/schema#',
        },
      },
      {
        type: 'function',
        name: 'Read',
        description: 'Reads a file from the local filesystem.',
        parameters: {
          type: 'object',
          properties: { file_path: { type: 'string' } },
          required: ['file_path'],
        },
        cacheControl: { type: 'ephemeral' },
      },
      {
        type: 'provider',
        kind: 'web-search',
        protocol: 'anthropic-messages',
        value: { type: 'web_search_20250305', name: 'web_search', max_uses: 5 },
      },
    ]);
    expect(request.toolChoice).toEqual({ type: 'auto' });
    expect(request.parallelToolCalls).toBeUndefined();
  });

  it('maps adaptive thinking and output_config.effort to reasoning, keeping the rest in extensions', () => {
    expect(request.reasoning).toEqual({ enabled: true, effort: 'high' });
    expect(request.extensions).toEqual({
      'anthropic-messages': {
        body: {
          output_config: { effort: 'high' },
          context_management: { edits: [{ type: 'clear_thinking_20251015', keep: 'all' }] },
        },
        thinking: { type: 'adaptive' },
        toolFields: { Read: { defer_loading: true } },
      },
    });
  });
});

describe('decodeRequest: sampling and thinking requests', () => {
  it('reads a string system, prefill, sampling, stop sequences and a forced tool without parallel calls', () => {
    const { request, losses } = decode(readJsonFixture('request-sampling.json'));
    expect(request.system).toEqual([{ type: 'text', text: 'You are terse.' }]);
    expect(request.messages).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'Name three colours.' }] },
      { role: 'assistant', parts: [{ type: 'text', text: 'Red,' }] },
    ]);
    expect(request).toMatchObject({
      temperature: 0.2,
      topP: 0.9,
      topK: 40,
      stop: ['###', 'END'],
      maxOutputTokens: 1024,
    });
    expect(request.tools[0]).toMatchObject({ type: 'function', name: 'get_weather', strict: true });
    expect(request.toolChoice).toEqual({ type: 'tool', name: 'get_weather' });
    expect(request.parallelToolCalls).toBe(false);
    expect(request.stream).toBe(false);
    expect(request.reasoning).toBeUndefined();
    expect(request.extensions).toEqual({
      'anthropic-messages': {
        body: { service_tier: 'standard_only', container: 'container_011CPR5CNjB747bTd36fQLFk' },
      },
    });
    expect(losses).toEqual([]);
  });

  it('reads images by link and file id, text and linked documents, a thinking budget and a JSON schema', () => {
    const { request } = decode(readJsonFixture('request-thinking.json'));
    expect(request.system).toEqual([
      { type: 'text', text: 'Answer as JSON.' },
      { type: 'text', text: 'Keep it short.' },
    ]);
    expect(request.messages[0]?.parts).toEqual([
      { type: 'file', mediaType: 'image/*', source: { kind: 'url', url: 'https://example.com/cat.jpg' } },
      {
        type: 'file',
        mediaType: 'image/*',
        source: { kind: 'file-id', fileId: 'file_011CNha8iCJcU1wXNR6q4V8w' },
      },
      {
        type: 'file',
        mediaType: 'text/plain',
        source: { kind: 'base64', data: Buffer.from('Plain notes: naïve café.').toString('base64') },
      },
      {
        type: 'file',
        mediaType: 'application/pdf',
        source: { kind: 'url', url: 'https://example.com/paper.pdf' },
      },
      { type: 'text', text: 'Describe these.' },
    ]);
    expect(request.reasoning).toEqual({ enabled: true, budgetTokens: 10000 });
    expect(request.responseFormat).toEqual({
      type: 'json-schema',
      name: 'response',
      schema: { type: 'object', properties: { summary: { type: 'string' } }, required: ['summary'] },
    });
    expect(request.user).toBe('user-42');
    expect(request.extensions).toEqual({});
  });

  it('reads disabled thinking, and keeps an effort the canonical form cannot say only in extensions', () => {
    const { request } = decode({
      ...minimal,
      thinking: { type: 'disabled' },
      output_config: { effort: 'max' },
    });
    expect(request.reasoning).toEqual({ enabled: false });
    expect(request.extensions).toEqual({
      'anthropic-messages': { body: { output_config: { effort: 'max' } } },
    });
  });

  it('keeps `display` of enabled thinking for a same-protocol encode', () => {
    const thinking = { type: 'enabled', budget_tokens: 2048, display: 'omitted' };
    const { request } = decode({ ...minimal, thinking });
    expect(request.reasoning).toEqual({ enabled: true, budgetTokens: 2048 });
    expect(request.extensions).toEqual({ 'anthropic-messages': { thinking } });
  });
});

describe('decodeRequest: conversation shape', () => {
  it('puts leading system messages into the system prompt and keeps later ones in place', () => {
    const { request } = decode({
      ...minimal,
      system: 'Top.',
      messages: [
        { role: 'system', content: 'Leading.' },
        { role: 'user', content: 'Hi' },
        { role: 'system', content: [{ type: 'text', text: 'Midway.' }] },
        { role: 'user', content: 'Again' },
      ],
    });
    expect(request.system).toEqual([
      { type: 'text', text: 'Top.' },
      { type: 'text', text: 'Leading.' },
    ]);
    expect(request.messages).toEqual([
      { role: 'user', parts: [{ type: 'text', text: 'Hi' }] },
      { role: 'system', parts: [{ type: 'text', text: 'Midway.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Again' }] },
    ]);
  });

  it('merges consecutive turns of one role, as Anthropic does', () => {
    const { request } = decode({
      ...minimal,
      messages: [
        { role: 'user', content: 'One' },
        { role: 'user', content: [{ type: 'text', text: 'Two' }] },
        { role: 'assistant', content: 'Three' },
      ],
    });
    expect(request.messages).toEqual([
      {
        role: 'user',
        parts: [
          { type: 'text', text: 'One' },
          { type: 'text', text: 'Two' },
        ],
      },
      { role: 'assistant', parts: [{ type: 'text', text: 'Three' }] },
    ]);
  });

  it('prefers the model the relay gives (modifier stripped)', () => {
    expect(decode({ ...minimal, model: 'claude-test@high' }, { model: 'claude-test' }).request.model).toBe(
      'claude-test',
    );
  });

  it('reads an empty thinking signature (the gateway returns them for other vendors) as none', () => {
    const { request } = decode({
      ...minimal,
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'Hmm.', signature: '' }] },
      ],
    });
    expect(request.messages[1]?.parts).toEqual([{ type: 'reasoning', text: 'Hmm.' }]);
  });
});

describe('decodeRequest: unknown input and losses', () => {
  it('keeps unknown blocks raw and custom-content documents whole', () => {
    const search = {
      type: 'search_result',
      source: 'https://x',
      title: 'X',
      content: [{ type: 'text', text: 'x' }],
    };
    const contentDocument = { type: 'document', source: { type: 'content', content: 'Some text' } };
    const { request } = decode({
      ...minimal,
      messages: [{ role: 'user', content: [search, contentDocument] }],
    });
    expect(request.messages[0]?.parts).toEqual([
      { type: 'raw', protocol: 'anthropic-messages', value: search },
      { type: 'raw', protocol: 'anthropic-messages', value: contentDocument },
    ]);
  });

  it('records what a known block carries beyond the canonical form', () => {
    const { losses } = decode({
      ...minimal,
      messages: [
        {
          role: 'user',
          content: [
            {
              type: 'image',
              source: { type: 'url', url: 'https://x/y.png' },
              transformations: { oversized_image: 'error' },
            },
            {
              type: 'document',
              source: { type: 'url', url: 'https://x/y.pdf' },
              context: 'A paper',
              citations: { enabled: true },
            },
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [{ type: 'tool_reference', tool_name: 'Grep' }],
            },
          ],
        },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'x', signature: 's', cache_control: { type: 'ephemeral' } },
            {
              type: 'tool_use',
              id: 'toolu_2',
              name: 'f',
              input: {},
              caller: { type: 'code_execution_20250825', tool_id: 'srvtoolu_1' },
            },
          ],
        },
      ],
    });
    expect(losses.map((loss) => [loss.kind, loss.path])).toEqual([
      ['dropped', 'messages[0].content[0].transformations'],
      ['dropped', 'messages[0].content[1].context'],
      ['dropped', 'messages[0].content[1].citations'],
      ['dropped', 'messages[0].content[2].content[0]'],
      ['dropped', 'messages[1].content[0].cache_control'],
      ['dropped', 'messages[1].content[1].caller'],
    ]);
  });

  it.each([
    [{ model: 'm', max_tokens: 1 }, 'messages'],
    [{ ...minimal, messages: [{ role: 'developer', content: 'x' }] }, 'messages[0].role'],
    [{ ...minimal, messages: [{ role: 'user' }] }, 'messages[0].content'],
    [
      { ...minimal, messages: [{ role: 'user', content: [{ type: 'text' }] }] },
      'messages[0].content[0].text',
    ],
    [
      {
        ...minimal,
        messages: [{ role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] }],
      },
      'messages[0].content[0].id',
    ],
    [
      { ...minimal, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64' } }] }] },
      'messages[0].content[0].source',
    ],
    [{ ...minimal, tools: [{ name: 'f' }] }, 'tools[0].input_schema'],
    [{ ...minimal, tool_choice: { type: 'tool' } }, 'tool_choice.name'],
    [{ ...minimal, thinking: { type: 'enabled' } }, 'thinking.budget_tokens'],
    [{ ...minimal, max_tokens: 'many' }, 'max_tokens'],
    [{ ...minimal, stop_sequences: 'END' }, 'stop_sequences'],
    [{ ...minimal, system: 42 }, 'system'],
  ])('rejects a request without what the protocol requires (%#: %s)', (body, field) => {
    let caught: unknown;
    try {
      decode(body as Record<string, unknown>);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(GatewayError);
    expect(caught).toMatchObject({ errorName: 'field_required', params: { field }, status: 400 });
  });
});
