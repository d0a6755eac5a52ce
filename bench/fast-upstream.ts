/**
 * An upstream that answers at once, for measuring the gateway's own cost: OpenAI chat completions
 * on `/v1/chat/completions` and Anthropic messages on `/v1/messages`, a fixed reply or a stream of
 * `BENCH_STREAM_CHUNKS` text chunks written back to back. A request whose text says `bench-hold`
 * keeps its stream open after the first chunk until the process is told to release held streams
 * (`POST /release`), for the open-streams memory measurement; one that says `bench-pace` writes one
 * chunk every `BENCH_PACE_MS` milliseconds (default 1), so that each chunk reaches the proxy in a
 * read of its own, as a model's tokens do (`bench-pace-N`: only the first N text chunks). The
 * markers sit in the conversation, so they survive a conversion by the gateway.
 */
import { createServer, type ServerResponse } from 'node:http';

const port = Number(process.env.PORT ?? 0);
const chunkCount = Number(process.env.BENCH_STREAM_CHUNKS ?? 100);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 1);

interface Dialect {
  reply: Buffer;
  /** Events before the text, one per text chunk, and after it (with usage when `withUsage`). */
  opening: string;
  chunks: string[];
  closing(withUsage: boolean): string;
}

const sse = (data: unknown, event?: string) =>
  `${event ? `event: ${event}\n` : ''}data: ${JSON.stringify(data)}\n\n`;
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

const held = new Set<{ response: ServerResponse; rest: string }>();

const server = createServer((request, response) => {
  if (request.url === '/release') {
    for (const { response: open, rest } of held) open.end(rest);
    held.clear();
    response.end('released');
    return;
  }
  const dialect = request.url === '/v1/messages' ? messages : chat;
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const text = Buffer.concat(parts).toString();
    if (!text.includes('"stream":true')) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': dialect.reply.length });
      response.end(dialect.reply);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const closing = dialect.closing(text.includes('"include_usage":true'));
    if (text.includes('bench-hold')) {
      response.write(dialect.opening + dialect.chunks[0]);
      held.add({ response, rest: dialect.chunks.slice(1).join('') + closing });
      response.on('close', () => {
        for (const entry of held) if (entry.response === response) held.delete(entry);
      });
      return;
    }
    const paced = /bench-pace(?:-(\d+))?/.exec(text);
    if (paced) {
      response.write(dialect.opening);
      const chunks = paced[1] === undefined ? dialect.chunks : dialect.chunks.slice(0, Number(paced[1]));
      let next = 0;
      const timer = setInterval(() => {
        if (next < chunks.length) return void response.write(chunks[next++]);
        clearInterval(timer);
        response.end(closing);
      }, PACE_MS);
      response.on('close', () => clearInterval(timer));
      return;
    }
    response.end(dialect.opening + dialect.chunks.join('') + closing);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : port}\n`);
});
