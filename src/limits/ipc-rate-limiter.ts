import { MemoryRateLimiter } from './memory-rate-limiter.js';
import type { RateDecision, RateLimiter, RateLimits } from './rate-limiter.js';
import type { AdmitRequest, TokenCounts } from '../cluster/cluster-messages.js';
import type { IpcLink } from '../cluster/ipc-link.js';

export interface IpcRateLimiterOptions {
  /** How long to wait for the primary's answer before deciding here (ms). */
  timeoutMs?: number;
  /** How long token counts may wait for a question to travel with before they go alone (ms). */
  tokenFlushMs?: number;
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
 * the last one ahead of them, so a busy worker pays one IPC round trip per turn rather than one
 * per request, and never asks with its own tokens still unsent. When the primary does not answer
 * in time the worker decides with counters of its own, a limit per worker, rather than refusing
 * traffic or admitting it unchecked.
 */
export class IpcRateLimiter implements RateLimiter {
  private readonly fallback = new MemoryRateLimiter();
  private readonly timeoutMs: number;
  private readonly tokenFlushMs: number;
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
  }

  admit(keyId: number, limits: RateLimits): Promise<RateDecision> {
    if (limits.rpm === null && limits.tpm === null) return Promise.resolve({ allowed: true });
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
    const counts = this.takeTokens();
    if (counts.length > 0) this.link.notify('tokens', { counts });
    await this.fallback.close();
  }

  private async ask(): Promise<void> {
    const waiting = this.waiting;
    this.waiting = [];
    const requests = waiting.map((each) => each.request);
    let decisions: RateDecision[];
    try {
      decisions = await this.link.call('admit', { tokens: this.takeTokens(), requests }, this.timeoutMs);
      if (decisions.length !== requests.length)
        throw new Error('the primary answered another number of questions');
      this.failing = false;
    } catch (error) {
      if (!this.failing) this.options.onError?.(error);
      this.failing = true;
      decisions = [];
      for (const { keyId, limits } of requests) decisions.push(await this.fallback.admit(keyId, limits));
    }
    waiting.forEach((each, index) => each.resolve(decisions[index]!));
  }

  private takeTokens(): TokenCounts {
    clearTimeout(this.tokenTimer);
    this.tokenTimer = undefined;
    const counts = [...this.unsentTokens];
    this.unsentTokens = new Map();
    return counts;
  }
}
