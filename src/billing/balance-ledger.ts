import { GatewayError } from '../errors/gateway-error.js';
import type { Hold, MoneyLedger } from '../store/money-ledger.js';
import { formatUsd } from './money.js';

/** Money held for one request until it settles or is released, exactly once. */
export class Reservation implements Hold {
  private state: 'held' | 'settled' | 'released' = 'held';

  constructor(
    readonly userId: number,
    readonly keyId: number,
    /** Whether the key's own quota was reserved too. */
    readonly keyCapped: boolean,
    /** nano-USD */
    readonly amount: number,
  ) {}

  /** Marks the reservation closed; returns false when it already was, so money moves once. */
  close(outcome: 'settled' | 'released'): boolean {
    if (this.state !== 'held') return false;
    this.state = outcome;
    return true;
  }
}

export type ReserveRequest = Hold;

/**
 * Reservation and settlement against user balances and key quotas (admin-api section 3). Each move
 * is atomic in the database, so concurrent requests can never together take more than the balance
 * or the key's cap; the `Reservation` makes sure each one settles or is released exactly once.
 */
export class BalanceLedger {
  constructor(private readonly ledger: MoneyLedger) {}

  async reserve(request: ReserveRequest): Promise<Reservation> {
    const outcome = await this.ledger.reserve(request);
    if (outcome === 'balance') {
      const balance = await this.ledger.balanceOf(request.userId);
      if (balance <= 0) throw new GatewayError('balance_exhausted', { balance: formatUsd(balance) });
      throw new GatewayError('balance_below_precharge', {
        balance: formatUsd(balance),
        need: formatUsd(request.amount),
      });
    }
    if (outcome === 'quota') {
      throw new GatewayError('key_quota_below_precharge', {
        remain: formatUsd(await this.ledger.quotaOf(request.keyId)),
        need: formatUsd(request.amount),
      });
    }
    return new Reservation(request.userId, request.keyId, request.keyCapped, request.amount);
  }

  /** Charges the real cost and returns the rest of the reservation. */
  async settle(reservation: Reservation, cost: number): Promise<void> {
    if (reservation.close('settled')) await persist(() => this.ledger.settle(reservation, cost));
  }

  /** Gives the whole reservation back: the request failed and costs nothing. */
  async release(reservation: Reservation): Promise<void> {
    if (reservation.close('released')) await persist(() => this.ledger.release(reservation));
  }
}

const SETTLE_ATTEMPTS = 6;

/**
 * A settlement must land even through a database hiccup: it is tried again with growing waits
 * (0.1 s to 3.2 s), and only then reported. Each attempt is one atomic statement or transaction,
 * so a failed attempt moved no money.
 */
async function persist(move: () => Promise<void>): Promise<void> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await move();
    } catch (error) {
      if (attempt >= SETTLE_ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 100 * 2 ** (attempt - 1)));
    }
  }
}
