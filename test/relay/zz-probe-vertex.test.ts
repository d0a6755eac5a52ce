import { afterAll, beforeAll, it } from 'vitest';
import { bearer, send } from '../helpers/client-request.js';
import { startVertexFixture, type VertexFixture } from './vertex-fixture.js';
let fx: VertexFixture;
beforeAll(async () => { fx = await startVertexFixture(); });
afterAll(() => fx?.close());
it('probe', async () => {
  const ask = () => send(fx.gw.origin, '/v1/chat/completions', { method: 'POST', headers: bearer(fx.key), body: { model: 'vx-gemini', messages: [{ role: 'user', content: 'hi' }] } });
  const out: string[] = [];
  out.push('R0 ' + (await ask()).status);
  fx.vertex.oauth.revokeAll();
  for (let i = 1; i < 4; i++) { const r = await ask(); out.push('R' + i + ' ' + r.status + ' ' + r.text.slice(0, 160)); }
  out.push('TOKENREQ ' + fx.vertex.oauth.tokenRequests.length);
  process.stdout.write(out.join('\n') + '\n');
});
