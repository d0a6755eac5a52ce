import { describe, expect, it } from 'vitest';
import { anthropicMessagesPassthrough } from '../../src/protocols/anthropic-messages/passthrough.js';
import { geminiPassthrough } from '../../src/protocols/gemini/passthrough.js';
import { openAIChatPassthrough } from '../../src/protocols/openai-chat/passthrough.js';
import { openAIResponsesPassthrough } from '../../src/protocols/openai-responses/passthrough.js';
import type { PassthroughCodec } from '../../src/protocols/passthrough-codec.js';
import type { SseEvent } from '../../src/protocols/sse/sse-event-reader.js';

const event = (data: unknown, name?: string): SseEvent => ({
  event: name,
  id: undefined,
  data: typeof data === 'string' ? data : JSON.stringify(data),
});

interface TapCase {
  name: string;
  codec: PassthroughCodec;
  /** A valid event that does not end the stream. */
  middle: SseEvent;
  /** Each of the protocol's ways to end a stream well. */
  endings: SseEvent[];
  /** The upstream's own error event, with the message `overloaded`. */
  errors: SseEvent[];
  missing: string;
}

const chatChunk = (delta: object, finish: string | null = null) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  choices: [{ index: 0, delta, finish_reason: finish }],
});

const cases: TapCase[] = [
  {
    name: 'OpenAI chat',
    codec: openAIChatPassthrough,
    middle: event(chatChunk({ content: 'Hi' })),
    endings: [event('[DONE]'), event(' [DONE] '), event(chatChunk({}, 'stop'))],
    errors: [
      event({ error: { message: 'overloaded', type: 'server_error', code: null } }),
      event({ error: 'overloaded' }),
    ],
    missing: 'the stream ended without [DONE] or a finish_reason',
  },
  {
    name: 'OpenAI responses',
    codec: openAIResponsesPassthrough,
    middle: event({ type: 'response.output_text.delta', delta: 'Hi' }, 'response.output_text.delta'),
    endings: ['response.completed', 'response.incomplete'].map((type) =>
      event({ type, response: { status: type.slice(9), usage: null } }, type),
    ),
    errors: [
      event({ type: 'error', code: 'server_error', message: 'overloaded', param: null }, 'error'),
      event(
        {
          type: 'response.failed',
          response: { status: 'failed', error: { code: 'x', message: 'overloaded' } },
        },
        'response.failed',
      ),
    ],
    missing: 'the stream ended without response.completed, response.incomplete or response.failed',
  },
  {
    name: 'Anthropic messages',
    codec: anthropicMessagesPassthrough,
    middle: event(
      { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } },
      'content_block_delta',
    ),
    endings: [event({ type: 'message_stop' }, 'message_stop')],
    errors: [event({ type: 'error', error: { type: 'overloaded_error', message: 'overloaded' } }, 'error')],
    missing: 'the stream ended without message_stop',
  },
  {
    name: 'Gemini',
    codec: geminiPassthrough,
    middle: event({ candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] } }] }),
    endings: [
      event({ candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: 'STOP' }] }),
      event({ promptFeedback: { blockReason: 'SAFETY' } }),
    ],
    errors: [event({ error: { code: 503, message: 'overloaded', status: 'UNAVAILABLE' } })],
    missing: 'the stream ended without a candidate with a finishReason',
  },
];

describe.each(cases)('$name stream tap', ({ codec, middle, endings, errors, missing }) => {
  const tap = () => codec.createStreamTap({ hideUsageEvents: false });

  it('lets valid events through and collects their text', () => {
    const streamTap = tap();
    expect(streamTap.onEvent(middle)).toEqual({ kind: 'forward' });
    expect(streamTap.producedText()).toBe('Hi');
  });

  it.each(['not json', '{"cut": ', '42', '["an array"]', 'null', ''])(
    'refuses data that is not a JSON object: %j',
    (data) => {
      const detail = `an event whose data is not a JSON object: ${JSON.stringify(data)}`;
      expect(tap().onEvent(event(data, middle.event))).toEqual({ kind: 'invalid', detail });
    },
  );

  it('shows at most 80 characters of the data in the detail', () => {
    const verdict = tap().onEvent(event(`{${'x'.repeat(200)}`));
    expect(verdict).toEqual({
      kind: 'invalid',
      detail: `an event whose data is not a JSON object: ${JSON.stringify(`{${'x'.repeat(79)}…`)}`,
    });
  });

  it('says when the stream ended before its last event, and not after it', () => {
    const streamTap = tap();
    streamTap.onEvent(middle);
    expect(streamTap.missingEnd()).toBe(missing);
    for (const ending of endings) {
      const ended = tap();
      expect(ended.onEvent(ending)).toEqual({ kind: 'forward' });
      expect(ended.missingEnd()).toBeUndefined();
    }
  });

  it("passes the upstream's own error event on, with its message", () => {
    for (const error of errors)
      expect(tap().onEvent(error)).toEqual({ kind: 'upstream-error', message: 'overloaded' });
  });
});

describe('OpenAI chat stream tap, usage the client did not ask for', () => {
  it('hides the usage-only chunk and reads its usage', () => {
    const usageChunk = event({
      id: 'chatcmpl-1',
      choices: [],
      usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 },
    });
    const hiding = openAIChatPassthrough.createStreamTap({ hideUsageEvents: true });
    expect(hiding.onEvent(usageChunk)).toEqual({ kind: 'hide' });
    expect(hiding.usage()).toMatchObject({ inputTokens: 3, outputTokens: 2 });
    const showing = openAIChatPassthrough.createStreamTap({ hideUsageEvents: false });
    expect(showing.onEvent(usageChunk)).toEqual({ kind: 'forward' });
  });
});
