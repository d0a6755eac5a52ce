import { readFileSync } from 'node:fs';
export { sseEventsInPieces as sseEvents } from '../../helpers/sse-in-pieces.js';
export { expectStreamGrammar } from '../../helpers/expect-stream-grammar.js';

const FIXTURES = new URL('../../../src/protocols/gemini/__fixtures__/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, FIXTURES), 'utf8');
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

export interface LocalServer {
  origin: string;
  /** Bodies received, parsed as JSON, with the path each came to. */
  requests: { url: string; body: unknown }[];
  close(): Promise<void>;
}

/** A local HTTP server (127.0.0.1, random port) that answers every request with `reply`. */
export async function serve(reply: { contentType: string; body: string | string[] }): Promise<LocalServer> {
  const { createServer } = await import('node:http');
  const requests: LocalServer['requests'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ url: request.url ?? '', body: text ? (JSON.parse(text) as unknown) : undefined });
      response.writeHead(200, { 'content-type': reply.contentType });
      // Pieces are written one by one, as a streaming upstream would.
      for (const piece of Array.isArray(reply.body) ? reply.body : [reply.body]) response.write(piece);
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
