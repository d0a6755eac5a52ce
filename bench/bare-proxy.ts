/**
 * The floor a gateway on the same stack could reach: Fastify 5 and undici with nothing else. It
 * checks a bearer key against one fixed key (constant-time), parses the JSON body and forwards it
 * to `UPSTREAM` over a keep-alive Agent, streaming the reply back as it arrives. No database, no
 * billing, no logging, no conversion.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify from 'fastify';
import { Agent, request } from 'undici';

const port = Number(process.env.PORT ?? 0);
const upstream = process.env.UPSTREAM ?? 'http://127.0.0.1:8080';
const upstreamKey = process.env.UPSTREAM_KEY ?? 'upstream-key';
const expected = digest(process.env.BARE_PROXY_KEY ?? 'bare-proxy-key');

const agent = new Agent({ keepAliveTimeout: 30_000, keepAliveMaxTimeout: 60_000 });
const app = Fastify({ logger: false });

// Hashing first gives both sides the same length, which `timingSafeEqual` needs.
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

function authorized(header: string | undefined): boolean {
  if (!header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice('Bearer '.length)), expected);
}

app.post('/v1/chat/completions', async function forward(clientRequest, reply) {
  if (!authorized(clientRequest.headers.authorization)) {
    return reply.code(401).send({ error: { message: 'invalid key', type: 'invalid_request_error' } });
  }
  const body = clientRequest.body;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return reply.code(400).send({ error: { message: 'the body must be a JSON object' } });
  }
  const upstreamReply = await request(`${upstream}/v1/chat/completions`, {
    method: 'POST',
    dispatcher: agent,
    headers: { authorization: `Bearer ${upstreamKey}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  reply.code(upstreamReply.statusCode);
  const contentType = upstreamReply.headers['content-type'];
  if (contentType !== undefined) reply.header('content-type', contentType);
  const contentLength = upstreamReply.headers['content-length'];
  if (contentLength !== undefined) reply.header('content-length', contentLength);
  // Fastify pipes a readable body chunk by chunk, and destroys it (aborting the upstream request)
  // when the client leaves.
  return reply.send(upstreamReply.body);
});

const origin = await app.listen({ port, host: '127.0.0.1' });
process.stdout.write(`bare proxy ready on ${origin}\n`);
process.once('SIGTERM', () => {
  void app.close().then(() => agent.close());
});
