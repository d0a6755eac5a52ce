/**
 * An OpenAI-compatible upstream that answers at once, for measuring the gateway's own cost:
 * a fixed chat completion, or a stream of `BENCH_STREAM_CHUNKS` chunks written back to back.
 * A body with `"bench_hold":true` keeps a stream open after its first chunk until the process is told to
 * release held streams (`POST /release`), for the open-streams memory measurement. A body with
 * `"bench_pace_ms":N` writes one chunk every N milliseconds, so that each chunk reaches the proxy
 * in a read of its own, as a model's tokens do.
 */
import { createServer, type ServerResponse } from 'node:http';

const port = Number(process.env.PORT ?? 0);
const chunkCount = Number(process.env.BENCH_STREAM_CHUNKS ?? 100);

const completion = Buffer.from(
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
);

const chunk = (content: string) =>
  `data: ${JSON.stringify({
    id: 'chatcmpl-bench',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'bench-model',
    choices: [{ index: 0, delta: { content }, finish_reason: null }],
  })}\n\n`;
const streamBody = Array.from({ length: chunkCount }, (_, index) => chunk(`tok${index} `));
const usageChunk = `data: ${JSON.stringify({
  id: 'chatcmpl-bench',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'bench-model',
  choices: [],
  usage: { prompt_tokens: 12, completion_tokens: chunkCount, total_tokens: 12 + chunkCount },
})}\n\n`;

const held = new Set<ServerResponse>();

const server = createServer((request, response) => {
  if (request.url === '/release') {
    for (const open of held) open.end('data: [DONE]\n\n');
    held.clear();
    response.end('released');
    return;
  }
  const parts: Buffer[] = [];
  request.on('data', (part: Buffer) => parts.push(part));
  request.on('end', () => {
    const text = Buffer.concat(parts).toString();
    if (!text.includes('"stream":true')) {
      response.writeHead(200, { 'content-type': 'application/json', 'content-length': completion.length });
      response.end(completion);
      return;
    }
    response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    if (text.includes('"bench_hold":true')) {
      response.write(streamBody[0]);
      held.add(response);
      response.on('close', () => held.delete(response));
      return;
    }
    const withUsage = text.includes('"include_usage":true');
    const pace = Number(/"bench_pace_ms":(\d+)/.exec(text)?.[1] ?? 0);
    if (pace > 0) {
      let next = 0;
      const timer = setInterval(() => {
        if (next < streamBody.length) return void response.write(streamBody[next++]);
        clearInterval(timer);
        if (withUsage) response.write(usageChunk);
        response.end('data: [DONE]\n\n');
      }, pace);
      response.on('close', () => clearInterval(timer));
      return;
    }
    for (const part of streamBody) response.write(part);
    if (withUsage) response.write(usageChunk);
    response.end('data: [DONE]\n\n');
  });
});
server.keepAliveTimeout = 60_000;
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`listening ${typeof address === 'object' && address ? address.port : port}\n`);
});
