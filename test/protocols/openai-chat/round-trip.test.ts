import { describe, expect, test } from 'vitest';
import { LossLog } from '../../../src/ir/loss.js';
import { openAIChatCodec } from '../../../src/protocols/openai-chat/codec.js';
import { fixtureJson } from './helpers.js';

const user = (content: unknown) => ({ role: 'user', content });

/** Client bodies that exercise every decision the codec keeps in its extension. */
const bodies: Record<string, Record<string, unknown>> = {
  'request-full.json': fixtureJson('request-full.json'),
  'stream without include_usage': { model: 'm', stream: true, messages: [user('hi')] },
  'max_tokens, both caps': { model: 'm', max_tokens: 10, messages: [user('hi')] },
  'both caps': { model: 'm', max_tokens: 10, max_completion_tokens: 20, messages: [user('hi')] },
  'named system messages and developers in place': {
    model: 'm',
    messages: [
      { role: 'system', content: 'a', name: 'x' },
      {
        role: 'system',
        content: [
          { type: 'text', text: 'b' },
          { type: 'text', text: 'c' },
        ],
      },
      user('hi'),
      { role: 'developer', content: 'later' },
      { role: 'system', content: 'later still' },
    ],
  },
  'cache breakpoints and top_k': {
    model: 'm',
    top_k: 20,
    messages: [
      {
        role: 'system',
        content: [{ type: 'text', text: 'sys', prompt_cache_breakpoint: { mode: 'explicit' } }],
      },
      user([
        {
          type: 'image_url',
          image_url: { url: 'https://x/y.png' },
          prompt_cache_breakpoint: { mode: 'explicit' },
        },
        { type: 'text', text: 'q' },
      ]),
    ],
  },
  'files in every form': {
    model: 'm',
    messages: [
      user([
        { type: 'file', file: { file_data: 'JVBERi0=' } },
        { type: 'file', file: { file_data: 'data:image/png;base64,iVBO', filename: 'a.png' } },
        { type: 'file', file: { file_data: 'data:image/png;base64,iVBO' } },
        { type: 'file', file: { file_id: 'file-1', filename: 'notes.txt' } },
        { type: 'input_audio', input_audio: { data: 'SUQz', format: 'mp3' } },
        { type: 'image_url', image_url: { url: 'data:,hello%20world' } },
      ]),
    ],
  },
  'raw parts, refusals, legacy functions, extra message fields': {
    model: 'm',
    functions: [{ name: 'legacy', parameters: { type: 'object' } }],
    function_call: 'auto',
    messages: [
      user([{ type: 'video_url', video_url: { url: 'https://v' } }]),
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'refusal', refusal: 'no' },
        ],
        audio: { id: 'au_1' },
      },
      { role: 'assistant', content: null, function_call: { name: 'legacy', arguments: '{}' } },
      { role: 'function', name: 'legacy', content: '42' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'custom', custom: { name: 'sql', input: 'select 1' } }],
      },
      { role: 'tool', tool_call_id: 'c1', name: 'sql', content: '1' },
      { role: 'assistant', content: 'done', reasoning_content: '' },
    ],
  },
  'tool choices': {
    model: 'm',
    tools: [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }],
    tool_choice: { type: 'function', function: { name: 'f' } },
    parallel_tool_calls: false,
    messages: [user('hi')],
  },
  'unmapped values': {
    model: 'm',
    tools: [{ type: 'function', function: { name: 'f' } }],
    tool_choice: {
      type: 'allowed_tools',
      allowed_tools: { mode: 'required', tools: [{ type: 'function', function: { name: 'f' } }] },
    },
    reasoning_effort: 'max',
    response_format: { type: 'json_object' },
    verbosity: 'low',
    messages: [user('hi')],
  },
};

describe('decode(encode(decode(x))) equals decode(x)', () => {
  test.each(Object.entries(bodies))('%s', (_, body) => {
    const losses = new LossLog();
    const decoded = openAIChatCodec.decodeRequest(body, { losses });
    const encoded = openAIChatCodec.encodeRequest(decoded, { losses, defaultMaxTokens: 8192 });
    const again = openAIChatCodec.decodeRequest(
      JSON.parse(JSON.stringify(encoded)) as Record<string, unknown>,
      {
        losses,
      },
    );
    expect(again).toEqual(decoded);
    expect(losses.losses).toEqual([]);
  });
});

describe('replies', () => {
  test.each(['reply-text.json', 'reply-tool-calls.json'])(
    'decodeReply(encodeReply(decodeReply(%s))) is stable',
    (name) => {
      const losses = new LossLog();
      const decoded = openAIChatCodec.decodeReply(fixtureJson(name), losses);
      const again = openAIChatCodec.decodeReply(openAIChatCodec.encodeReply(decoded, losses), losses);
      // `usage.raw` is the block as received: the re-encoded one writes only what the canonical usage holds.
      expect({ ...again, usage: { ...again.usage, raw: undefined } }).toEqual({
        ...decoded,
        usage: { ...decoded.usage, raw: undefined },
      });
      expect(losses.losses).toEqual([]);
    },
  );
});
