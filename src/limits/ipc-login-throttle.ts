import {
  MemoryLoginThrottle,
  type AttemptDecision,
  type AttemptTicket,
  type LoginThrottle,
} from './login-throttle.js';
import type { IpcLink } from '../cluster/ipc-link.js';

const TIMEOUT_MS = 2_000;

/**
 * Console sign-in attempts counted for the whole machine: the primary keeps the counts, so ten
 * failures are ten whichever workers took them. Without an answer from the primary a worker counts
 * on its own (as the Redis throttle does without Redis), and the attempts it began so end there.
 */
export class IpcLoginThrottle implements LoginThrottle {
  private readonly fallback = new MemoryLoginThrottle();
  /** Tickets the fallback issued: their end goes to it, not to the primary. */
  private readonly local = new Set<string>();

  constructor(
    private readonly link: IpcLink,
    private readonly onError: (error: unknown) => void = () => undefined,
  ) {}

  async begin(subjects: readonly string[]): Promise<AttemptDecision> {
    try {
      return await this.link.call('loginBegin', { subjects: [...subjects] }, TIMEOUT_MS);
    } catch (error) {
      this.onError(error);
      const decision = await this.fallback.begin(subjects);
      if (decision.allowed) this.local.add(decision.ticket.id);
      return decision;
    }
  }

  async succeed(ticket: AttemptTicket, clear: readonly string[]): Promise<void> {
    if (this.local.delete(ticket.id)) return this.fallback.succeed(ticket, clear);
    await this.link
      .call(
        'loginSucceed',
        { ticket: { id: ticket.id, subjects: [...ticket.subjects] }, clear: [...clear] },
        TIMEOUT_MS,
      )
      .catch((error: unknown) => this.onError(error));
  }

  async close(): Promise<void> {
    await this.fallback.close();
  }
}
