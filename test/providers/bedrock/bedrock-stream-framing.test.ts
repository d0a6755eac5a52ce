import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { parseBedrockCredential } from '../../../src/providers/bedrock/bedrock-credential.js';
import {
  createBedrockStreamFraming,
  type BedrockStreamMode,
} from '../../../src/providers/bedrock/bedrock-stream-framing.js';
import { signBedrockRequest } from '../../../src/providers/bedrock/sign-bedrock-request.js';
import { chunkFrame, errorFrame, eventFrame, exceptionFrame } from '../../fakes/bedrock-event-stream.js';
import { FAKE_AWS_CREDENTIAL, startFakeBedrock } from '../../fakes/fake-bedrock.js';
import type { FakeStep, FakeUpstream } from '../../fakes/fake-upstream.js';

const messageStart = '{"type":"message_start","message":{"id":"msg_1","role":"assistant","content":[]}}';
const textDelta = '{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Grüße 👋"}}';
const messageStop = '{"type":"message_stop","amazon-bedrock-invocationMetrics":{"inputTokenCount":3}}';

function run(mode: BedrockStreamMode, chunks: Buffer[]): { text: string; incomplete: boolean } {
  const framing = createBedrockStreamFraming(mode);
  const text = chunks.map((chunk) => framing.push(chunk)).join('');
  return { text, ...framing.end() };
}

describe('createBedrockStreamFraming', () => {
  const frames = [
    chunkFrame(messageStart),
    chunkFrame(textDelta),
    chunkFrame(messageStop),
    exceptionFrame('throttlingException', { message: 'Too many tokens, please wait before trying again.' }),
  ];
  const whole = Buffer.concat(frames);
  const expected =
    `event: message_start\ndata: ${messageStart}\n\n` +
    `event: content_block_delta\ndata: ${textDelta}\n\n` +
    `event: message_stop\ndata: ${messageStop}\n\n` +
    'event: error\ndata: {"type":"error","error":{"type":"rate_limit_error","message":"Too many tokens, please wait before trying again."}}\n\n';

  test('invoke: the same SSE whatever byte offset the frames are split at', () => {
    expect(run('invoke', [whole])).toEqual({ text: expected, incomplete: false });
    for (let offset = 0; offset <= whole.length; offset++)
      expect(run('invoke', [whole.subarray(0, offset), whole.subarray(offset)])).toEqual({
        text: expected,
        incomplete: false,
      });
  });

  test('invoke: one byte at a time, each event out as soon as its frame is whole', () => {
    const framing = createBedrockStreamFraming('invoke');
    const outputs: string[] = [];
    for (let index = 0; index < whole.length; index++) {
      const text = framing.push(whole.subarray(index, index + 1));
      if (text) outputs.push(`${index + 1}:${text.split('\n')[0]}`);
    }
    let end = 0;
    expect(outputs).toEqual(
      frames.map((frame, index) => {
        end += frame.length;
        return `${end}:event: ${['message_start', 'content_block_delta', 'message_stop', 'error'][index]}`;
      }),
    );
  });

  test('invoke: each exception becomes the closest Anthropic error; error frames too', () => {
    const errorType = (frame: Buffer) => /"error":\{"type":"(\w+)"/.exec(run('invoke', [frame]).text)?.[1];
    const table = {
      throttlingException: 'rate_limit_error',
      validationException: 'invalid_request_error',
      serviceUnavailableException: 'overloaded_error',
      modelNotReadyException: 'overloaded_error',
      modelTimeoutException: 'timeout_error',
      internalServerException: 'api_error',
      modelStreamErrorException: 'api_error',
    };
    for (const [exception, type] of Object.entries(table))
      expect([exception, errorType(exceptionFrame(exception, { message: 'x' }))]).toEqual([exception, type]);
    expect(run('invoke', [errorFrame('InternalFailure', 'It broke.')]).text).toBe(
      'event: error\ndata: {"type":"error","error":{"type":"api_error","message":"It broke."}}\n\n',
    );
  });

  test('invoke: chunks without an Anthropic `type` are dropped; a chunk that is not JSON breaks the stream', () => {
    expect(run('invoke', [chunkFrame('{"keepalive":true}')]).text).toBe('');
    expect(() => run('invoke', [chunkFrame('{oops')])).toThrow(/not JSON/);
    expect(() => run('invoke', [eventFrame('chunk', { other: 1 })])).toThrow(/without base64/);
  });

  test('converse: event and exception types name the SSE events, payloads as they are', () => {
    const delta = eventFrame('contentBlockDelta', { delta: { text: 'Hi' }, contentBlockIndex: 0 }, false);
    const stop = eventFrame('messageStop', { stopReason: 'end_turn', p: 'abc' }, false);
    const exception = exceptionFrame('validationException', { message: 'Bad input.' });
    const error = errorFrame('InternalFailure', 'It broke.');
    const whole = Buffer.concat([delta, stop, exception, error]);
    const expectedText =
      'event: contentBlockDelta\ndata: {"delta":{"text":"Hi"},"contentBlockIndex":0}\n\n' +
      'event: messageStop\ndata: {"stopReason":"end_turn","p":"abc"}\n\n' +
      'event: validationException\ndata: {"message":"Bad input."}\n\n' +
      'event: InternalFailure\ndata: {"message":"It broke."}\n\n';
    for (let offset = 0; offset <= whole.length; offset += 7)
      expect(run('converse', [whole.subarray(0, offset), whole.subarray(offset)])).toEqual({
        text: expectedText,
        incomplete: false,
      });
  });

  test('end reports a frame left unfinished; broken frames throw', () => {
    const frame = chunkFrame(messageStart);
    expect(run('invoke', [frame.subarray(0, 3)])).toEqual({ text: '', incomplete: true });
    expect(run('invoke', [frame, frame.subarray(0, frame.length - 1)])).toEqual({
      text: `event: message_start\ndata: ${messageStart}\n\n`,
      incomplete: true,
    });
    const corrupt = Buffer.from(frame);
    corrupt[20] = (corrupt[20] ?? 0) ^ 0xff;
    expect(() => run('invoke', [corrupt])).toThrow(/checksum/);
    expect(() => run('converse', [Buffer.from([0xff, 0xff, 0xff, 0xff])])).toThrow(
      /cannot be \d+ bytes long/,
    );
  });
});

describe('createBedrockStreamFraming on the fake Bedrock streams', () => {
  let fake: FakeUpstream;
  beforeAll(async () => {
    fake = await startFakeBedrock();
  });
  afterAll(() => fake.close());
  const credential = parseBedrockCredential(
    `${FAKE_AWS_CREDENTIAL.accessKeyId}:${FAKE_AWS_CREDENTIAL.secretAccessKey}`,
  );

  async function stream(options: {
    action: string;
    body: unknown;
    mode: BedrockStreamMode;
    step?: FakeStep;
  }) {
    if (options.step) fake.script(options.step);
    const url = `${fake.origin}/model/${encodeURIComponent('us.anthropic.claude-sonnet-4-20250514-v1:0')}/${options.action}`;
    const body = JSON.stringify(options.body);
    const headers = await signBedrockRequest({
      url,
      headers: { 'content-type': 'application/json' },
      body,
      credential,
      region: 'us-east-1',
    });
    const response = await request(url, { method: 'POST', headers, body });
    expect(response.headers['content-type']).toBe('application/vnd.amazon.eventstream');
    const framing = createBedrockStreamFraming(options.mode);
    let text = '';
    for await (const chunk of response.body) text += framing.push(chunk as Buffer);
    const events = [...text.matchAll(/^event: (\w+)$/gm)].map((match) => match[1]);
    return { text, events, ...framing.end() };
  }
  const invokeBody = {
    anthropic_version: 'bedrock-2023-05-31',
    max_tokens: 50,
    messages: [{ role: 'user', content: 'Hi' }],
  };
  const converseBody = { messages: [{ role: 'user', content: [{ text: 'Hi' }] }] };

  test('an invoke stream is the Anthropic event sequence', async () => {
    const { events, incomplete } = await stream({
      action: 'invoke-with-response-stream',
      body: invokeBody,
      mode: 'invoke',
    });
    expect(incomplete).toBe(false);
    expect(events.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(events.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
  });

  test('a converse stream, cut in the middle of a frame and ended by an exception', async () => {
    const whole = await stream({ action: 'converse-stream', body: converseBody, mode: 'converse' });
    expect(whole.events).toEqual([
      'messageStart',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockDelta',
      'contentBlockStop',
      'messageStop',
      'metadata',
    ]);
    const cut = await stream({
      action: 'converse-stream',
      body: converseBody,
      mode: 'converse',
      step: { type: 'cut-mid-frame', afterChunks: 2 },
    });
    expect(cut).toMatchObject({ events: ['messageStart', 'contentBlockDelta'], incomplete: true });
    const failed = await stream({
      action: 'invoke-with-response-stream',
      body: invokeBody,
      mode: 'invoke',
      step: { type: 'error-mid-stream', afterChunks: 2, message: 'Stream broke.' },
    });
    expect(failed.events).toEqual(['message_start', 'content_block_start', 'error']);
    expect(failed.text).toContain('{"type":"error","error":{"type":"api_error","message":"Stream broke."}}');
  });
});
