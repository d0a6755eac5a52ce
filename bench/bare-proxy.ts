/**
 * The bench's bare proxy as a process (`bare-proxy-server.ts`): `PORT`, `UPSTREAM`, `UPSTREAM_KEY`,
 * `BARE_PROXY_KEY`; with `BARE_PROXY_LEDGER_DIR` set, the money moves alone (`money-moves.ts`).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createBareProxy } from './bare-proxy-server.js';
import { openMoneyMoves } from './money-moves.js';

const port = Number(process.env.PORT ?? 0);
const ledgerDir = process.env.BARE_PROXY_LEDGER_DIR;
const { server, agent } = createBareProxy({
  upstream: process.env.UPSTREAM ?? 'http://127.0.0.1:8080',
  upstreamKey: process.env.UPSTREAM_KEY ?? 'upstream-key',
  proxyKey: process.env.BARE_PROXY_KEY ?? 'bare-proxy-key',
  moneyMoves:
    ledgerDir === undefined
      ? undefined
      : await openMoneyMoves(path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..'), ledgerDir),
});
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const listening = typeof address === 'object' && address ? address.port : port;
  process.stdout.write(`bare proxy ready on http://127.0.0.1:${listening}\n`);
});
process.once('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void agent.close();
});
