import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api/api-error';
import { chatStreamText, sseResponse } from '../test/sse-response';
import { streamChatCompletion } from './stream-chat-completion';

afterEach(() => {
  vi.unstubAllGlobals();
});

/** The text cut every `size` characters, so frames and even JSON split across reads. */
function cut(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let start = 0; start < text.length; start += size) pieces.push(text.slice(start, start + size));
  return pieces;
}

describe('streamChatCompletion', () => {
  it('sends a streamed request with usage asked for, and reads the text, the usage and the request id', async () => {
    const text = chatStreamText({ texts: ['Hel', 'lo ', 'wörld'], promptTokens: 12, completionTokens: 3 });
    const fetchMock = vi.fn(async () => sseResponse(cut(text, 7), { requestId: 'req-abc' }));
    vi.stubGlobal('fetch', fetchMock);
    const texts: string[] = [];
    const started: (string | null)[] = [];
    const answer = await streamChatCompletion({
      key: 'sk-play',
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      signal: new AbortController().signal,
      onStart: (id) => started.push(id),
      onText: (delta) => texts.push(delta),
    });
    expect(texts.join('')).toBe('Hello wörld');
    expect(answer).toEqual({
      requestId: 'req-abc',
      usage: { promptTokens: 12, completionTokens: 3 },
      finishReason: 'stop',
    });
    expect(started).toEqual(['req-abc']);
    const [url, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe('/v1/chat/completions');
    expect(init.credentials).toBe('omit');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer sk-play');
    expect(JSON.parse(String(init.body))).toEqual({
      model: 'gpt-4o-mini',
      messages: [{ role: 'user', content: 'Hi' }],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('throws the gateway’s refusal, before or inside the stream', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(
        async () =>
          new Response(
            JSON.stringify({
              error: { message: 'Insufficient balance', type: 'x', code: 'insufficient_quota' },
            }),
            { status: 402 },
          ),
      ),
    );
    const request = {
      key: 'sk-play',
      model: 'gpt-4o-mini',
      messages: [{ role: 'user' as const, content: 'Hi' }],
      signal: new AbortController().signal,
      onText: () => undefined,
    };
    await expect(streamChatCompletion(request)).rejects.toMatchObject({
      status: 402,
      code: 'insufficient_quota',
      message: 'Insufficient balance',
    });

    const texts: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async () =>
        sseResponse([
          'data: {"choices":[{"index":0,"delta":{"content":"Par"},"finish_reason":null}]}\n\n',
          'data: {"error":{"message":"upstream went away","type":"gateway_api_error","code":"upstream_error"}}\n\n',
        ]),
      ),
    );
    const failure = await streamChatCompletion({ ...request, onText: (text) => texts.push(text) }).catch(
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).message).toBe('upstream went away');
    expect(texts).toEqual(['Par']);
  });
});
