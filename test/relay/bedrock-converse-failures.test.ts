import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eventFrame, exceptionFrame } from '../fakes/bedrock-event-stream.js';
import { bearer, send } from '../helpers/client-request.js';
import { startBedrockFixture, type BedrockFixture } from './bedrock-fixture.js';

/**
 * Converse failures through the gateway: Bedrock's error replies passed through with their status,
 * an exception inside a ConverseStream ending each client family's stream with its own error event
 * (the status the exception stands for), and a stream cut inside a frame charged for what it
 * produced.
 */

let fx: BedrockFixture;
beforeAll(async () => {
  fx = await startBedrockFixture();
});
afterAll(() => fx?.close());
beforeEach(async () => {
  fx.clear();
  await fx.resetHealth(fx.channels.keyPair);
});

type Family = 'openai-chat' | 'openai-responses' | 'anthropic-messages' | 'gemini';
const families: Family[] = ['openai-chat', 'openai-responses', 'anthropic-messages', 'gemini'];

/** One streamed request of the family for `nova-pro`, sent with fetch: the bytes the gateway wrote. */
async function streamRaw(family: Family): Promise<string> {
  const model = 'nova-pro';
  const messages = [{ role: 'user', content: 'Hello?' }];
  const requests: Record<Family, [string, Record<string, unknown>, Record<string, string>]> = {
    'openai-chat': ['/v1/chat/completions', { model, messages, stream: true }, bearer(fx.key)],
    'openai-responses': ['/v1/responses', { model, input: 'Hello?', stream: true }, bearer(fx.key)],
    'anthropic-messages': [
      '/v1/messages',
      { model, max_tokens: 64, messages, stream: true },
      { 'x-api-key': fx.key, 'anthropic-version': '2023-06-01' },
    ],
    gemini: [
      `/v1beta/models/${model}:streamGenerateContent?alt=sse`,
      { contents: [{ role: 'user', parts: [{ text: 'Hello?' }] }] },
      { 'x-goog-api-key': fx.key },
    ],
  };
  const [path, body, headers] = requests[family];
  const response = await send(fx.gw.origin, path, { method: 'POST', headers, body });
  expect(response.status).toBe(200);
  return response.text;
}

/** The family's error event, last on the wire, for an error of `status` saying `message`. */
function errorEventLast(family: Family, error: { status: number; code: string; message: string }): RegExp {
  const anthropicType: Record<number, string> = {
    424: 'api_error',
    429: 'rate_limit_error',
    500: 'api_error',
  };
  const geminiStatus: Record<number, string> = {
    424: 'INTERNAL',
    429: 'RESOURCE_EXHAUSTED',
    500: 'INTERNAL',
  };
  const message = JSON.stringify(error.message)
    .slice(1, -1)
    .replace(/[\\^$.*+?()[\]{}|]/g, '\\$&');
  switch (family) {
    case 'openai-chat':
      return new RegExp(
        `data: \\{"error":\\{"message":"${message}[^\\n]*"code":"${error.code}"\\}\\}\\n\\n$`,
      );
    case 'openai-responses':
      return new RegExp(
        `event: error\\ndata: \\{"type":"error"[^\\n]*${message}[^\\n]*\\n\\nevent: response\\.failed\\ndata: [^\\n]*"status":"failed"[^\\n]*\\n\\n$`,
      );
    case 'anthropic-messages':
      return new RegExp(
        `event: error\\ndata: \\{"type":"error","error":\\{"type":"${anthropicType[error.status]}","message":"${message}"\\}\\}\\n\\n$`,
      );
    case 'gemini':
      return new RegExp(
        `data: \\{"error":\\{"code":${error.status === 424 ? 500 : error.status},"message":"${message}","status":"${geminiStatus[error.status]}"\\}\\}\\r\\n\\r\\n$`,
      );
  }
}

/** What a success finish looks like on each family's wire: none may come with an error. */
const successFinish: Record<Family, RegExp> = {
  'openai-chat': /"finish_reason":"(stop|length|tool_calls)"|\[DONE\]/,
  'openai-responses': /response\.completed|response\.incomplete/,
  'anthropic-messages': /message_stop|"stop_reason":"end_turn"/,
  gemini: /"finishReason"/,
};

/** The start of a ConverseStream reply, then an exception frame. */
function converseStreamThen(exception: { type: string; message: string }): Uint8Array[] {
  return [
    eventFrame('messageStart', { role: 'assistant' }),
    eventFrame('contentBlockDelta', { delta: { text: 'Hello ' }, contentBlockIndex: 0 }),
    eventFrame('contentBlockDelta', { delta: { text: 'from ' }, contentBlockIndex: 0 }),
    exceptionFrame(exception.type, { message: exception.message }),
  ];
}

async function expectChargedWithError(text: string): Promise<void> {
  const [log] = await fx.logs();
  expect(log).toMatchObject({ model: 'nova-pro', stream: true, status_code: 200 });
  expect(log?.error).toContain(text);
  expect(log?.completion_tokens).toBeGreaterThan(0);
  expect(log?.cost).toBeGreaterThan(0);
}

describe.each(families)('%s client, an exception inside ConverseStream', (family) => {
  it.each([
    { type: 'modelStreamErrorException', status: 424, message: 'The model stream failed.' },
    { type: 'throttlingException', status: 429, message: 'Too many tokens, please wait.' },
    { type: 'internalServerException', status: 500, message: 'Internal "server" error.' },
  ])('$type: the stream ends with the family’s error event ($status)', async ({ type, status, message }) => {
    fx.bedrock.script({ type: 'raw-stream', chunks: converseStreamThen({ type, message }) });
    const wire = await streamRaw(family);
    expect(wire).toContain('Hello ');
    expect(wire).toMatch(errorEventLast(family, { status, code: type, message }));
    expect(wire).not.toMatch(successFinish[family]);
    await expectChargedWithError(message);
  });

  it("the fake's own mid-stream exception (modelStreamErrorException)", async () => {
    fx.bedrock.script({ type: 'error-mid-stream', afterChunks: 3, message: 'Stream broke.' });
    const wire = await streamRaw(family);
    expect(wire).toMatch(
      errorEventLast(family, { status: 424, code: 'modelStreamErrorException', message: 'Stream broke.' }),
    );
    await expectChargedWithError('Stream broke.');
  });

  it('a stream cut inside a frame: the error event, charged for what came', async () => {
    fx.bedrock.script({ type: 'cut-mid-frame', afterChunks: 3 });
    const wire = await streamRaw(family);
    expect(wire).toContain('Hello ');
    expect(wire).toContain('the upstream stream broke off');
    expect(wire).not.toMatch(successFinish[family]);
    await expectChargedWithError('the upstream stream broke off');
  });
});

describe('the SDKs raise the exception', () => {
  it('chat: an APIError with the exception’s code, after the text', async () => {
    fx.bedrock.script({
      type: 'raw-stream',
      chunks: converseStreamThen({ type: 'throttlingException', message: 'Slow down.' }),
    });
    let text = '';
    const read = async () => {
      const messages = [{ role: 'user' as const, content: 'Hello?' }];
      for await (const chunk of await fx.openai.chat.completions.create({
        model: 'nova-pro',
        messages,
        stream: true,
      }))
        text += chunk.choices[0]?.delta.content ?? '';
    };
    const raised = await read().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(raised).toBeInstanceOf(OpenAI.APIError);
    expect(raised).toMatchObject({ message: 'Slow down.', code: 'throttlingException' });
    expect(text).toBe('Hello from ');
  });

  it('gemini: the SDK raises with the 429 status', async () => {
    fx.bedrock.script({
      type: 'raw-stream',
      chunks: converseStreamThen({ type: 'throttlingException', message: 'Slow down.' }),
    });
    let text = '';
    const read = async () => {
      for await (const chunk of await fx.google.models.generateContentStream({
        model: 'nova-pro',
        contents: 'Hi',
      }))
        text += chunk.text ?? '';
    };
    await expect(read()).rejects.toThrow(/Slow down\./);
    expect(text).toBe('Hello from ');
  });

  it('anthropic: the stream raises a rate_limit_error', async () => {
    fx.bedrock.script({
      type: 'raw-stream',
      chunks: converseStreamThen({ type: 'throttlingException', message: 'Slow down.' }),
    });
    const stream = fx.anthropic.messages.stream({
      model: 'nova-pro',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'Hi' }],
    });
    await expect(stream.finalMessage()).rejects.toThrow(/rate_limit_error.*Slow down\./);
  });
});

describe("Bedrock's error replies passed through", () => {
  it('ThrottlingException: 429 and Retry-After to a chat client, nothing charged', async () => {
    fx.bedrock.script({ type: 'error', status: 429, message: 'Too many requests.', retryAfter: 5 });
    const response = await send(fx.gw.origin, '/v1/chat/completions', {
      method: 'POST',
      headers: bearer(fx.key),
      body: { model: 'nova-pro', messages: [{ role: 'user', content: 'Hi' }], stream: true },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.body).toEqual({ message: 'Too many requests.' });
    const [log] = await fx.logs();
    expect(log).toMatchObject({ model: 'nova-pro', status_code: 429, cost: 0 });
  });

  it('ValidationException: 400 with what Bedrock said', async () => {
    fx.bedrock.script({
      type: 'error',
      status: 400,
      message: 'The model returned the following errors: bad.',
    });
    await expect(
      fx.anthropic.messages.create({
        model: 'llama-3-3',
        max_tokens: 64,
        messages: [{ role: 'user', content: 'Hi' }],
      }),
    ).rejects.toMatchObject({
      status: 400,
      error: { message: 'The model returned the following errors: bad.' },
    });
    expect(fx.bedrock.requests).toHaveLength(1);
  });
});
