import { randomUUID } from 'node:crypto';
import type { Logger } from '../observability/logger.js';
import type { LeasesRepository } from '../store/leases-repository.js';
import type { MoneyLedger, ReturnedHold } from '../store/money-ledger.js';
import { isProcessAlive, machineIdentity } from './machine-identity.js';

export interface HoldKeeperOptions {
  ledger: MoneyLedger;
  leases: LeasesRepository;
  logger: Logger;
  /** How long a lease lasts without renewal; renewed every third of it. */
  ttlMs: number;
  /** Holds of dead owners were returned: caches of those users and keys must reload. */
  onReturned(holds: ReturnedHold[]): Promise<void>;
  /** This process could not renew its lease in time: its holds may be returned by others. */
  onLeaseLost(): void;
}

/**
 * Keeps this process's lease alive and returns the holds of dead owners (admin-api section 3,
 * rule 6). An owner is dead when its lease expired, when it has none, or when it ran on this
 * machine and its pid is gone — which is how a restarted single instance gets back the holds of
 * its previous life at once. Each return is one atomic move keyed by the holds, so two instances
 * racing to return the same owner's holds return them once.
 */
export class HoldKeeper {
  readonly owner = randomUUID();
  private readonly host = machineIdentity();
  private timer: NodeJS.Timeout | undefined;
  private lastRenewedAt = Date.now();
  private ticking: Promise<void> | undefined;

  private constructor(private readonly options: HoldKeeperOptions) {}

  /** Registers this process's lease, returns what dead owners left, and keeps both up. */
  static async start(options: HoldKeeperOptions): Promise<HoldKeeper> {
    const keeper = new HoldKeeper(options);
    await options.leases.register(
      { owner: keeper.owner, host: keeper.host, pid: process.pid },
      options.ttlMs,
    );
    // A failure here (a deadlock with another instance's batch, a dropped connection) must not stop
    // the start: the next tick returns them.
    await keeper.returnDeadOwnersHolds().catch((error: unknown) => {
      options.logger.warn({ err: error }, 'could not return the holds of stopped processes yet; will retry');
    });
    keeper.timer = setInterval(() => void keeper.tick(), Math.max(50, Math.floor(options.ttlMs / 3)));
    keeper.timer.unref();
    return keeper;
  }

  /** Returns every hold whose owner is dead; resolves to how many were returned. */
  async returnDeadOwnersHolds(): Promise<number> {
    let returned = 0;
    for (const { owner, lease } of await this.options.leases.holdOwners(this.owner)) {
      const dead =
        lease === undefined ||
        lease.expired ||
        (this.host !== '' && lease.host === this.host && !isProcessAlive(lease.pid));
      if (!dead) continue;
      const holds = await this.options.ledger.returnHolds(owner);
      if (holds.length === 0) continue;
      returned += holds.length;
      this.options.logger.warn(
        { owner, holds: holds.length },
        'returned the reservations of a gateway process that stopped without settling them',
      );
      await this.options.onReturned(holds);
    }
    await this.options.leases.pruneExpired();
    return returned;
  }

  /** Stops renewing and drops the lease: whatever this process still holds is returnable at once. */
  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.ticking;
    await this.options.leases.drop(this.owner);
  }

  private async tick(): Promise<void> {
    if (this.ticking) return;
    this.ticking = (async () => {
      try {
        await this.renew();
        await this.returnDeadOwnersHolds();
      } catch (error) {
        this.options.logger.warn({ err: error }, 'hold lease upkeep failed; will retry');
        if (Date.now() - this.lastRenewedAt > this.options.ttlMs) this.options.onLeaseLost();
      }
    })();
    await this.ticking;
    this.ticking = undefined;
  }

  private async renew(): Promise<void> {
    const { leases, ttlMs } = this.options;
    if (await leases.renew(this.owner, ttlMs)) {
      this.lastRenewedAt = Date.now();
      return;
    }
    // Taken for dead while alive (a stall longer than the lease): requests still running here may
    // have had their money returned already; they settle as no-ops. Carry on with a new lease.
    this.options.logger.error({ owner: this.owner }, 'hold lease was lost; running requests are ended');
    this.options.onLeaseLost();
    await leases.register({ owner: this.owner, host: this.host, pid: process.pid }, ttlMs);
    this.lastRenewedAt = Date.now();
  }
}
