import { HeldLeases } from './held-leases.js';
import { MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateDecision, RateLease, RateLimiter, RateLimits } from './rate-limiter.js';
import type { AdmitRequest, LeaseRequest, TokenCounts } from '../cluster/cluster-messages.js';
import type { IpcLink } from '../cluster/ipc-link.js';

/** How long a worker may spend a lease before what is left of it goes back to the primary. */
const LEASE_MS = 100;
const ALLOWED: RateDecision = { allowed: true };

export interface IpcRateLimiterOptions {
  /** How long to wait for the primary's answer before deciding here (ms). */
  timeoutMs?: number;
  /** How long token counts may wait for a question to travel with before they go alone (ms). */
  tokenFlushMs?: number;
  /** How long a lease may be spent (ms). */
  leaseMs?: number;
  now?: () => number;
  /** Hears once per outage that the primary did not answer. */
  onError?: (error: unknown) => void;
}

interface Waiting {
  request: AdmitRequest;
  resolve(decision: RateDecision): void;
}

/**
 * Rate limits counted for the whole machine: the counters live in the primary process, which the
 * workers ask before they admit a request of a limited key (keys without limits ask nothing). The
 * questions asked during one turn of the event loop travel in one call, with the tokens used since
 * the last one ahead of them, so a busy worker pays at most one IPC round trip per turn, and never
 * asks with its own tokens still unsent. A key limited by `rpm` alone is asked for in leases: the
 * primary counts ahead the requests waiting, or a share of the room left when more (see
 * `MemoryRateLimiter.lease`), which the worker spends without asking for up to `leaseMs`, then
 * gives back what it did not use. The machine never admits more than the limit; near it, leases
 * hold only what is waiting. A key with a `tpm` limit asks for every request, since tokens used
 * elsewhere may refuse it at any moment. When the primary does not answer in time the worker
 * decides with counters of its own, a limit per worker, rather than refusing traffic or admitting
 * it unchecked.
 */
export class IpcRateLimiter implements RateLimiter {
  private readonly fallback = new MemoryRateLimiter();
  private readonly timeoutMs: number;
  private readonly tokenFlushMs: number;
  private readonly leases: HeldLeases;
  private waiting: Waiting[] = [];
  private unsentTokens = new Map<number, number>();
  private tokenTimer: NodeJS.Timeout | undefined;
  private failing = false;

  constructor(
    private readonly link: IpcLink,
    private readonly options: IpcRateLimiterOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? 1_000;
    this.tokenFlushMs = options.tokenFlushMs ?? 20;
    this.leases = new HeldLeases({
      leaseMs: options.leaseMs ?? LEASE_MS,
      now: options.now ?? Date.now,
      giveBack: (unused) => link.notify('giveBack', { unused }),
    });
  }

  admit(keyId: number, limits: RateLimits): Promise<RateDecision> {
    if (limits.rpm === null && limits.tpm === null) return Promise.resolve(ALLOWED);
    if (limits.tpm === null && this.leases.spend(keyId, limits.rpm!)) return Promise.resolve(ALLOWED);
    return new Promise((resolve) => {
      if (this.waiting.length === 0) setImmediate(() => void this.ask());
      this.waiting.push({ request: { keyId, limits }, resolve });
    });
  }

  async recordTokens(keyId: number, tokens: number): Promise<void> {
    if (tokens <= 0) return;
    await this.fallback.recordTokens(keyId, tokens);
    this.unsentTokens.set(keyId, (this.unsentTokens.get(keyId) ?? 0) + tokens);
    if (!this.tokenTimer) {
      this.tokenTimer = setTimeout(() => {
        const counts = this.takeTokens();
        if (counts.length > 0) this.link.notify('tokens', { counts });
      }, this.tokenFlushMs);
      this.tokenTimer.unref();
    }
  }

  async close(): Promise<void> {
    this.leases.close();
    const counts = this.takeTokens();
    if (counts.length > 0) this.link.notify('tokens', { counts });
    await this.fallback.close();
  }

  private async ask(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = [];
    // Requests of keys limited by rpm alone are asked for per key, as leases; the rest one by one.
    const leased = new Map<number, Waiting[]>();
    const single: Waiting[] = [];
    for (const each of waiting) {
      const { keyId, limits } = each.request;
      if (limits.tpm !== null) single.push(each);
      else if (leased.has(keyId)) leased.get(keyId)!.push(each);
      else leased.set(keyId, [each]);
    }
    const requests = single.map((each) => each.request);
    const leaseRequests: LeaseRequest[] = [...leased].map(([keyId, asking]) => ({
      keyId,
      rpm: asking[0]!.request.limits.rpm!,
      wanted: asking.length,
    }));
    // A key asked for again has spent its lease, or cannot spend what is left: that goes back.
    this.leases.end((keyId) => leased.has(keyId));
    let answer: { decisions: RateDecision[]; leases: RateLease[] };
    try {
      answer = await this.link.call(
        'admit',
        { tokens: this.takeTokens(), requests, leases: leaseRequests },
        this.timeoutMs,
      );
      if (answer.decisions.length !== requests.length || answer.leases.length !== leaseRequests.length)
        throw new Error('the primary answered another number of questions');
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.options.onError?.(error);
      this.failing = true;
      for (const { request, resolve } of waiting)
        resolve(await this.fallback.admit(request.keyId, request.limits));
      return;
    }
    single.forEach((each, index) => each.resolve(answer.decisions[index]!));
    leaseRequests.forEach(({ keyId, rpm }, index) =>
      this.spendGranted(keyId, rpm, answer.leases[index]!, leased.get(keyId)!),
    );
  }

  /** Admits the waiting requests a lease covers, refuses the others, and keeps the rest of it. */
  private spendGranted(keyId: number, rpm: number, lease: RateLease, asking: Waiting[]): void {
    asking.forEach((each, index) => {
      if (index < lease.granted) return each.resolve(ALLOWED);
      each.resolve({ allowed: false, limit: 'rpm', retryAfterSeconds: lease.retryAfterSeconds ?? 1 });
    });
    // A lease granted meanwhile, for requests of an earlier turn, is ended by this one.
    this.leases.keep(keyId, rpm, lease, lease.granted - asking.length);
  }

  private takeTokens(): TokenCounts {
    clearTimeout(this.tokenTimer);
    this.tokenTimer = undefined;
    const counts = [...this.unsentTokens];
    this.unsentTokens = new Map();
    return counts;
  }
}
