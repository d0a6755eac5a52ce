import type { WindowCharge, WindowRefusal } from '../../billing/budgets/window-charge.js';
import type { StoredWindow } from '../../store/budget-windows-repository.js';

/**
 * The first budget window with no room left, read from its stored counts (admin-api section 10):
 * its cost or tokens, settled and reserved, at the limit, or no request more fitting. A window
 * whose time is past has room (the next request starts it anew), as the money moves decide; one
 * another process already started after `nowS` is not this request's. Undefined when all have room.
 */
export function fullBudgetWindow(
  windows: readonly WindowCharge[],
  stored: ReadonlyMap<string, StoredWindow>,
  nowS: number,
): WindowRefusal | undefined {
  for (let index = 0; index < windows.length; index += 1) {
    const window = windows[index]!;
    const row = stored.get(window.key);
    if (window.period === 'concurrency' || !row || row.start > nowS) continue;
    const past =
      window.sessionSeconds === null
        ? row.start < (window.start ?? nowS)
        : nowS >= row.start + window.sessionSeconds;
    if (past) continue;
    const usd = row.usedUsd + row.heldUsd;
    const tokens = row.usedTokens + row.heldTokens;
    const requests = row.usedRequests + row.heldRequests;
    const refusal = (dimension: WindowRefusal['dimension'], used: number): WindowRefusal => ({
      window: index,
      dimension,
      windowStart: row.start,
      used,
    });
    if (window.usd !== null && usd >= window.usd) return refusal('usd', usd);
    if (window.tokens !== null && tokens >= window.tokens) return refusal('tokens', tokens);
    if (window.requests !== null && requests >= window.requests) return refusal('requests', requests);
  }
  return undefined;
}
