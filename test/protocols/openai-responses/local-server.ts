import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';

/**
 * Serves one fixed body on 127.0.0.1 to every request (JSON, or SSE written chunk by chunk, a
 * turn of the event loop apart) and
 * hands an OpenAI SDK client pointed at it to `run`, so the SDK's own parsers read our output.
 */
export async function withOpenAIClient<T>(
  reply: { contentType: 'application/json' | 'text/event-stream'; chunks: (string | Uint8Array)[] },
  run: (client: OpenAI) => Promise<T>,
): Promise<T> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', async () => {
      response.writeHead(200, { 'content-type': reply.contentType });
      for (const chunk of reply.chunks) {
        response.write(chunk);
        // A turn of the event loop between chunks, so they reach the client as separate reads.
        if (reply.chunks.length > 1) await new Promise((resolve) => setImmediate(resolve));
      }
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    return await run(new OpenAI({ apiKey: 'test', baseURL: `http://127.0.0.1:${port}/v1`, maxRetries: 0 }));
  } finally {
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
