import { randomUUID } from 'node:crypto';

/**
 * Console sign-in attempts (admin-api section 8): more than 10 failed attempts for one username or
 * one client IP within 15 minutes are refused until the oldest of them is 15 minutes old.
 *
 * An attempt counts as failed from the moment it starts, before the slow password check, and stops
 * counting if it succeeds: otherwise a burst of concurrent guesses would all pass the check while
 * none of them had failed yet.
 */
export const MAX_FAILED_ATTEMPTS = 10;
export const ATTEMPT_WINDOW_MS = 15 * 60_000;

/** What attempts are counted by: `username:<name>` and `ip:<address>`. */
export function attemptSubjects(options: { username: string | undefined; clientIp: string }): string[] {
  const subjects = [`ip:${options.clientIp}`];
  if (options.username !== undefined) subjects.push(`username:${options.username}`);
  return subjects;
}

export interface AttemptTicket {
  id: string;
  subjects: readonly string[];
}

export type AttemptDecision =
  { allowed: true; ticket: AttemptTicket } | { allowed: false; retryAfterSeconds: number };

export interface LoginThrottle {
  /** Refuses when a subject already has the maximum of failed attempts; else counts this one. */
  begin(subjects: readonly string[]): Promise<AttemptDecision>;
  /** The attempt succeeded: it stops counting, and the subjects in `clear` forget their failures. */
  succeed(ticket: AttemptTicket, clear: readonly string[]): Promise<void>;
  close(): Promise<void>;
}

interface Attempt {
  at: number;
  id: string;
}

/** Subjects kept before stale ones are swept; past `MAX_SUBJECTS` the oldest are dropped. */
const SWEEP_AT = 10_000;
const MAX_SUBJECTS = 100_000;

/** Counts in this process: right for a single instance (without `REDIS_URL`). */
export class MemoryLoginThrottle implements LoginThrottle {
  /** Per subject, its attempts within the window, oldest first, at most `MAX_FAILED_ATTEMPTS`. */
  private readonly attempts = new Map<string, Attempt[]>();

  constructor(private readonly now: () => number = Date.now) {}

  async begin(subjects: readonly string[]): Promise<AttemptDecision> {
    const now = this.now();
    let waitMs = 0;
    for (const subject of subjects) {
      const recent = this.recentAttempts(subject, now);
      const oldest = recent[0];
      if (recent.length >= MAX_FAILED_ATTEMPTS && oldest)
        waitMs = Math.max(waitMs, oldest.at + ATTEMPT_WINDOW_MS - now);
    }
    if (waitMs > 0) return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
    const ticket = { id: randomUUID(), subjects: [...subjects] };
    for (const subject of subjects) {
      const recent = [...this.recentAttempts(subject, now), { at: now, id: ticket.id }];
      this.attempts.delete(subject);
      this.attempts.set(subject, recent.slice(-MAX_FAILED_ATTEMPTS));
    }
    this.bound(now);
    return { allowed: true, ticket };
  }

  async succeed(ticket: AttemptTicket, clear: readonly string[]): Promise<void> {
    for (const subject of ticket.subjects) {
      const remaining = (this.attempts.get(subject) ?? []).filter((attempt) => attempt.id !== ticket.id);
      if (remaining.length === 0 || clear.includes(subject)) this.attempts.delete(subject);
      else this.attempts.set(subject, remaining);
    }
  }

  async close(): Promise<void> {
    this.attempts.clear();
  }

  private recentAttempts(subject: string, now: number): Attempt[] {
    return (this.attempts.get(subject) ?? []).filter((attempt) => attempt.at > now - ATTEMPT_WINDOW_MS);
  }

  /** Keeps memory bounded when many usernames or addresses are tried. */
  private bound(now: number): void {
    if (this.attempts.size < SWEEP_AT) return;
    for (const [subject, attempts] of this.attempts) {
      const newest = attempts[attempts.length - 1];
      if (!newest || newest.at <= now - ATTEMPT_WINDOW_MS) this.attempts.delete(subject);
    }
    for (const subject of this.attempts.keys()) {
      if (this.attempts.size <= MAX_SUBJECTS) break;
      this.attempts.delete(subject);
    }
  }
}
