/**
 * A streamed answer of the relay: the SSE text cut into the given pieces (so a parser meets
 * events split across reads), with the gateway's request id header.
 */
export function sseResponse(
  pieces: readonly string[],
  options: { requestId?: string; status?: number } = {},
) {
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const piece of pieces) controller.enqueue(encoder.encode(piece));
      controller.close();
    },
  });
  return new Response(body, {
    status: options.status ?? 200,
    headers: {
      'content-type': 'text/event-stream',
      ...(options.requestId === undefined ? {} : { 'x-gateway-request-id': options.requestId }),
    },
  });
}

/** The `data:` frames of an OpenAI chat stream: text deltas, a finish, the usage chunk and `[DONE]`. */
export function chatStreamText(options: {
  texts: readonly string[];
  promptTokens: number;
  completionTokens: number;
}) {
  const frame = (value: unknown) => `data: ${JSON.stringify(value)}\n\n`;
  const chunk = (delta: unknown, finish: string | null) =>
    frame({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      model: 'gpt-4o-mini',
      choices: [{ index: 0, delta, finish_reason: finish }],
      usage: null,
    });
  return [
    chunk({ role: 'assistant', content: '' }, null),
    ...options.texts.map((text) => chunk({ content: text }, null)),
    chunk({}, 'stop'),
    frame({
      id: 'chatcmpl-1',
      object: 'chat.completion.chunk',
      model: 'gpt-4o-mini',
      choices: [],
      usage: {
        prompt_tokens: options.promptTokens,
        completion_tokens: options.completionTokens,
        total_tokens: options.promptTokens + options.completionTokens,
      },
    }),
    'data: [DONE]\n\n',
  ].join('');
}
