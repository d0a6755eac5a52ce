/** The bench upstream's replies and streams in the two protocols it speaks, as it writes them. */
export interface Dialect {
  reply: Buffer;
  /** Events before the text, one per text chunk, and after it (with usage when `withUsage`). */
  opening: string;
  chunks: string[];
  closing(withUsage: boolean): string;
}

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;

/** Chat completions and Anthropic messages, with streams of `chunkCount` text chunks. */
export function benchDialects(chunkCount: number): { chat: Dialect; messages: Dialect } {
  const texts = Array.from({ length: chunkCount }, (_, index) => `tok${index} `);
  const chatChunk = (delta: unknown, finish: string | null) => ({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'bench-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });

  const chat: Dialect = {
    reply: Buffer.from(
      JSON.stringify({
        id: 'chatcmpl-bench',
        object: 'chat.completion',
        created: 1_700_000_000,
        model: 'bench-model',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content: 'Hello! How can I help you today?' },
            finish_reason: 'stop',
            logprobs: null,
          },
        ],
        usage: {
          prompt_tokens: 12,
          completion_tokens: 9,
          total_tokens: 21,
          prompt_tokens_details: { cached_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 0 },
        },
      }),
    ),
    opening: sse(chatChunk({ role: 'assistant', content: '' }, null)),
    chunks: texts.map((content) => sse(chatChunk({ content }, null))),
    closing: (withUsage) =>
      sse(chatChunk({}, 'stop')) +
      (withUsage
        ? sse({
            ...chatChunk({}, null),
            choices: [],
            usage: { prompt_tokens: 12, completion_tokens: chunkCount, total_tokens: 12 + chunkCount },
          })
        : '') +
      'data: [DONE]\n\n',
  };

  const messageStart = {
    id: 'msg_bench',
    type: 'message',
    role: 'assistant',
    model: 'bench-model',
    content: [],
    stop_reason: null,
    stop_sequence: null,
    usage: { input_tokens: 12, output_tokens: 1 },
  };
  const messages: Dialect = {
    reply: Buffer.from(
      JSON.stringify({
        ...messageStart,
        content: [{ type: 'text', text: 'Hello! How can I help you today?' }],
        stop_reason: 'end_turn',
        usage: { input_tokens: 12, output_tokens: 9 },
      }),
    ),
    opening:
      sse({ type: 'message_start', message: messageStart }, 'message_start') +
      sse(
        { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
        'content_block_start',
      ),
    chunks: texts.map((text) =>
      sse(
        { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
        'content_block_delta',
      ),
    ),
    closing: () =>
      sse({ type: 'content_block_stop', index: 0 }, 'content_block_stop') +
      sse(
        {
          type: 'message_delta',
          delta: { stop_reason: 'end_turn', stop_sequence: null },
          usage: { output_tokens: chunkCount },
        },
        'message_delta',
      ) +
      sse({ type: 'message_stop' }, 'message_stop'),
  };
  return { chat, messages };
}
