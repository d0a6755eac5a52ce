import path from 'node:path';
import { openLedgerAccount } from './ledger-account.js';

/**
 * The money moves admin-api section 3 asks of every request, and nothing else of the gateway: a
 * durable reservation before the upstream call and a settlement on the reply's usage after it,
 * through the built gateway's own `BalanceLedger` on its own SQLite schema (`dist/`), group
 * committed and with the records moved to `usage_logs` in batches, as the gateway makes them. The
 * bare proxy takes them on when `BARE_PROXY_LEDGER_DIR` is set: the floor under the gateway's
 * CPU per request that the durability rule alone sets.
 */
export interface MoneyMoves {
  reserve(requestId: string): Promise<unknown>;
  settle(reservation: unknown, requestId: string, reply: Buffer, latencyMs: number): Promise<unknown>;
}

/** nano-USD held per request, and charged per token of the reply's usage. */
const HOLD = 1_000_000;
const PER_TOKEN = 1_000;

interface Ledger {
  reserve(request: Record<string, unknown>): Promise<unknown>;
  settle(reservation: unknown, cost: number, record: Record<string, unknown>): Promise<boolean>;
}

export async function openMoneyMoves(root: string, dataDir: string): Promise<MoneyMoves> {
  const { openMoneyLedger } = await import(path.join(root, 'dist/store/open-money-ledger.js'));
  const { BalanceLedger } = await import(path.join(root, 'dist/billing/balance-ledger.js'));
  const { store, userId, keyId } = await openLedgerAccount(root, dataDir);
  const ledger: Ledger = new BalanceLedger(openMoneyLedger(store), `bare-proxy-${process.pid}`);
  return {
    reserve: (requestId) =>
      ledger.reserve({
        requestId,
        userId,
        keyId,
        keyCapped: false,
        amount: HOLD,
        model: 'bench-model',
        endpoint: 'chat',
        stream: false,
      }),
    settle(reservation, requestId, reply, latencyMs) {
      const usage = usageOf(reply);
      const cost = Math.min(HOLD, (usage.prompt + usage.completion) * PER_TOKEN);
      return ledger.settle(reservation, cost, {
        requestId,
        createdAt: Math.floor(Date.now() / 1000),
        userId,
        keyId,
        channelId: 1,
        model: 'bench-model',
        endpoint: 'chat',
        stream: false,
        statusCode: 200,
        promptTokens: usage.prompt,
        completionTokens: usage.completion,
        cachedTokens: 0,
        cacheWriteTokens: 0,
        reasoningTokens: 0,
        cost,
        latencyMs,
        firstByteMs: null,
        error: null,
      });
    },
  };
}

/** The token counts of a chat completions or messages reply; none for anything else. */
function usageOf(reply: Buffer): { prompt: number; completion: number } {
  let usage: Record<string, unknown> | undefined;
  try {
    usage = (JSON.parse(reply.toString('utf8')) as { usage?: Record<string, unknown> }).usage;
  } catch {
    usage = undefined;
  }
  const count = (value: unknown) => (typeof value === 'number' ? value : 0);
  return {
    prompt: count(usage?.prompt_tokens ?? usage?.input_tokens),
    completion: count(usage?.completion_tokens ?? usage?.output_tokens),
  };
}
