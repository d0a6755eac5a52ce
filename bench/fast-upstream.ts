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
import { benchDialects } from './bench-dialects.js';

const port = Number(process.env.PORT ?? 0);
const chunkCount = Number(process.env.BENCH_STREAM_CHUNKS ?? 100);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 1);

const { chat, messages } = benchDialects(chunkCount);

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
