import { describe, expect, it } from 'vitest';
import { LossLog } from '../../src/ir/loss.js';
import { anthropicMessagesPassthrough } from '../../src/protocols/anthropic-messages/passthrough.js';
import { protocols } from '../../src/protocols/registry.js';
import { openAIChatPassthrough } from '../../src/protocols/openai-chat/passthrough.js';
import { openAIResponsesPassthrough } from '../../src/protocols/openai-responses/passthrough.js';
import type { ProtocolName } from '../../src/protocols/protocol-codec.js';
import { convertStream } from '../../src/relay/convert.js';
import { passthroughStream } from '../../src/relay/passthrough.js';
import type { StreamTransform } from '../../src/relay/transforms.js';

const chunk = (delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
const usageChunk = `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', choices: [], usage: { prompt_tokens: 3, completion_tokens: 2, total_tokens: 5 } })}\n\n`;

/** What the client gets for `text` pushed in the pieces given by `cuts`, and how the stream failed. */
function run(transform: StreamTransform, text: string, cuts: number[] = []) {
  const bytes = Buffer.from(text);
  const out: string[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (transform.failure()) break;
    const piece = transform.push(bytes.subarray(from, cut));
    if (piece !== undefined) out.push(piece.toString());
    from = cut;
  }
  if (!transform.failure()) {
    const rest = transform.end();
    if (rest !== undefined) out.push(rest.toString());
  }
  return { out: out.join(''), failure: transform.failure() };
}

const chat = (hideUsageEvents = false) => passthroughStream(openAIChatPassthrough, { hideUsageEvents });

describe('passthroughStream', () => {
  const stream = [
    ': OPENROUTER PROCESSING\n\n',
    `id: 1\r\n${chunk({ role: 'assistant', content: '' }).replace(/\n/g, '\r\n')}`,
    chunk({ content: 'Hé 世界' }),
    chunk({}, 'stop'),
    usageChunk,
    'data: [DONE]\n\n',
  ].join('');

  it('forwards the upstream bytes exactly, comments, id lines and CRLF included, however they are cut', () => {
    for (let cut = 1; cut < Buffer.byteLength(stream); cut += 7) {
      expect(run(chat(), stream, [cut])).toEqual({ out: stream, failure: undefined });
    }
  });

  it('leaves out the usage chunk the client did not ask for, and nothing else', () => {
    expect(run(chat(true), stream)).toEqual({ out: stream.replace(usageChunk, ''), failure: undefined });
  });

  it('a frame that is not JSON: every valid frame before it goes out, nothing after', () => {
    const head = chunk({ content: 'a' }) + chunk({ content: 'b' });
    const text = `${head}data: {"id": oops\n\n${chunk({ content: 'c' })}data: [DONE]\n\n`;
    const transform = chat();
    expect(run(transform, text)).toEqual({
      out: head,
      failure: { kind: 'broken', detail: 'an event whose data is not a JSON object: "{\\"id\\": oops"' },
    });
    expect(transform.producedText()).toBe('ab');
  });

  it('a close in the middle of a frame: the half frame is held back', () => {
    const head = chunk({ content: 'a' });
    expect(run(chat(), `${head}${chunk({ content: 'b' }).slice(0, 30)}`, [head.length])).toEqual({
      out: head,
      failure: { kind: 'broken', detail: 'the connection closed in the middle of an event' },
    });
  });

  it("a clean close before the protocol's last event", () => {
    const text = chunk({ content: 'a' }) + ': trailing comment\n\n';
    expect(run(chat(), text)).toEqual({
      out: text,
      failure: { kind: 'broken', detail: 'the stream ended without [DONE] or a finish_reason' },
    });
  });

  it("the upstream's own error event goes out as it came; the stream failed, with its message", () => {
    const ping = 'event: ping\ndata: {"type":"ping"}\n\n';
    const error =
      'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    const transform = passthroughStream(anthropicMessagesPassthrough, { hideUsageEvents: false });
    // No message_stop after it: no gateway error event of its own either.
    expect(run(transform, `${ping}${error}${ping}`)).toEqual({
      out: ping + error + ping,
      failure: { kind: 'reported', message: 'Overloaded' },
    });
  });
});

const convert = (upstream: ProtocolName, client: ProtocolName) => {
  const losses = new LossLog();
  return convertStream({
    upstream: protocols[upstream].codec,
    client: protocols[client].codec,
    losses,
    encoder: { losses, estimatedInputTokens: 5, model: 'claude-test' },
  });
};

describe('passthrough error events the gateway writes', () => {
  it('a Responses stream ends with an error event numbered after the last event the client got', () => {
    const transform = passthroughStream(openAIResponsesPassthrough, { hideUsageEvents: false });
    const created = { type: 'response.created', sequence_number: 0, response: { id: 'resp_1' } };
    const delta = { type: 'response.output_text.delta', sequence_number: 7, delta: 'Hi' };
    run(
      transform,
      `event: response.created\ndata: ${JSON.stringify(created)}\n\nevent: response.output_text.delta\ndata: ${JSON.stringify(delta)}\n\n`,
    );
    const event = transform.errorEvent({ message: 'idle', code: 'upstream_timeout', status: 504 });
    expect(JSON.parse(event.split('data: ')[1]!)).toEqual({
      type: 'error',
      code: 'upstream_timeout',
      message: 'idle',
      param: null,
      sequence_number: 8,
    });
  });
});

describe('convertStream', () => {
  it("the upstream's error event becomes the client family's error event, not a finish", () => {
    const text = `${chunk({ content: 'Hi' })}data: {"error":{"message":"Rate limited","type":"requests","code":"rate_limit_exceeded"}}\n\n${chunk({}, 'stop')}data: [DONE]\n\n`;
    const { out, failure } = run(convert('openai-chat', 'anthropic-messages'), text);
    expect(failure).toEqual({ kind: 'reported', message: 'Rate limited' });
    expect(out).toContain('"text":"Hi"');
    expect(out).toMatch(
      /event: error\ndata: {"type":"error","error":{"type":"api_error","message":"Rate limited"}}\n\n$/,
    );
    expect(out).not.toContain('message_stop');
  });

  it('a frame that is not JSON breaks the stream; the relay then sends the error event', () => {
    const transform = convert('openai-chat', 'gemini');
    const { out, failure } = run(transform, `${chunk({ content: 'Hi' })}data: nope\n\n${chunk({}, 'stop')}`);
    expect(failure).toEqual({ kind: 'broken', detail: 'an event whose data is not a JSON object: "nope"' });
    expect(out).not.toContain('finishReason');
    expect(transform.errorEvent({ message: 'broke off', code: 'upstream_error', status: 502 })).toBe(
      'data: {"error":{"code":503,"message":"broke off","status":"UNAVAILABLE"}}\r\n\r\n',
    );
  });

  it('a close in the middle of a frame breaks the stream', () => {
    const { failure } = run(convert('anthropic-messages', 'openai-chat'), 'event: message_start\ndata: {"ty');
    expect(failure).toEqual({ kind: 'broken', detail: 'the connection closed in the middle of an event' });
  });
});

describe('the input estimate in converted streams', () => {
  const reported = [
    chunk({ role: 'assistant', content: 'Hi' }),
    chunk({}, 'stop'),
    usageChunk,
    'data: [DONE]\n\n',
  ];
  const withEstimate = (upstream: ProtocolName, client: ProtocolName, estimate: () => number) => {
    const losses = new LossLog();
    return convertStream({
      upstream: protocols[upstream].codec,
      client: protocols[client].codec,
      losses,
      encoder: {
        losses,
        get estimatedInputTokens() {
          return estimate();
        },
        model: 'test-model',
      },
    });
  };

  it.each(['gemini', 'openai-responses'] as const)(
    'a %s client stream whose upstream reports the input count never reads the estimate',
    (client) => {
      let reads = 0;
      const { out, failure } = run(
        withEstimate('openai-chat', client, () => (reads += 1)),
        reported.join(''),
      );
      expect(failure).toBeUndefined();
      expect(out).toContain('Hi');
      expect(reads).toBe(0);
    },
  );

  it.each(['gemini', 'openai-responses'] as const)(
    'a %s client stream without a reported input count states the estimate',
    (client) => {
      const withoutUsage = [
        chunk({ role: 'assistant', content: 'Hi' }),
        chunk({}, 'stop'),
        'data: [DONE]\n\n',
      ];
      const { out } = run(
        withEstimate('openai-chat', client, () => 4242),
        withoutUsage.join(''),
      );
      expect(out).toContain('4242');
    },
  );
});

describe("the stream's first output", () => {
  const events = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hi' }), chunk({}, 'stop')];

  it('a passthrough sends the first frame at once, the rest of the chunk after, and only once', () => {
    const transform = chat();
    const sent: string[] = [];
    const send = (out: Buffer | string) => void sent.push(out.toString());
    const rest = transform.push(Buffer.from(events.join('')), send);
    expect(sent).toEqual([events[0]]);
    expect(rest?.toString()).toBe(events[1]! + events[2]!);
    expect(transform.push(Buffer.from('data: [DONE]\n\n'), send)?.toString()).toBe('data: [DONE]\n\n');
    expect(sent).toHaveLength(1);
  });

  it('a conversion sends its first output at once, and the rest of the chunk in order after it', () => {
    const transform = convert('openai-chat', 'anthropic-messages');
    const sent: string[] = [];
    const rest = transform.push(Buffer.from(events.join('')), (out) => void sent.push(out.toString()));
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatch(/^event: message_start\n/);
    expect(rest?.toString()).toMatch(/^event: content_block_start\n/);
    const whole = run(convert('openai-chat', 'anthropic-messages'), events.join('')).out;
    expect(whole.startsWith(sent[0]! + rest!.toString())).toBe(true);
  });
});
