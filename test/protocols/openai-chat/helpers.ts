import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
export { decodeInPieces } from '../../helpers/sse-in-pieces.js';
export { expectStreamGrammar } from '../../helpers/expect-stream-grammar.js';

const fixtures = new URL('../../../src/protocols/openai-chat/__fixtures__/', import.meta.url);

export function fixtureText(name: string): string {
  return readFileSync(new URL(name, fixtures), 'utf8');
}

export function fixtureJson(name: string): Record<string, unknown> {
  return JSON.parse(fixtureText(name)) as Record<string, unknown>;
}

/** Serves one fixed body on 127.0.0.1 for an SDK to consume. */
export async function serveOnce(
  body: string,
  contentType: string,
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      response.writeHead(200, { 'content-type': contentType });
      response.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
