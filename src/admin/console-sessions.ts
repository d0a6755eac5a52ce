import { randomBytes } from 'node:crypto';
import { hashesEqual, hashKey } from '../auth/hash-key.js';
import { unixNow } from '../store/json-column.js';
import type { SessionRecord, SessionsRepository } from '../store/sessions-repository.js';
import type { UsersRepository } from '../store/users-repository.js';
import type { AdminAuthenticator } from './admin-authenticator.js';
import type { ConsoleCaller, ConsoleIdentity } from './console-identity.js';

/** A session ends 7 days after sign-in at the latest ... */
export const SESSION_LIFETIME_S = 7 * 24 * 3600;
/** ... or after 24 hours without a request, whichever comes first. */
export const SESSION_IDLE_S = 24 * 3600;
/** `last_seen_at` is written at most this often, not on every request. */
const TOUCH_INTERVAL_S = 60;
const TOKEN_BYTES = 32;

export interface StartedSession {
  /** The `gw_session` cookie's value; only its hash is stored. */
  token: string;
  /** The `gw_csrf` cookie's value; only its hash is stored. */
  csrfToken: string;
  /** Seconds the cookies are kept: the session's absolute lifetime. */
  maxAge: number;
}

/**
 * Server-side console sessions (admin-api section 8). Every request re-reads the session and its
 * user, so disabling a user, changing a role or replacing the admin token takes effect at once.
 */
export class ConsoleSessions {
  private readonly now: () => number;

  constructor(
    private readonly options: {
      sessions: SessionsRepository;
      users: UsersRepository;
      adminAuth: AdminAuthenticator;
      now?: () => number;
    },
  ) {
    this.now = options.now ?? unixNow;
  }

  async start(identity: ConsoleIdentity): Promise<StartedSession> {
    const now = this.now();
    await this.options.sessions.deleteExpired({ now, idleSince: now - SESSION_IDLE_S });
    const token = randomBytes(TOKEN_BYTES).toString('base64url');
    const csrfToken = randomBytes(TOKEN_BYTES).toString('base64url');
    await this.options.sessions.create({
      id: hashKey(token),
      userId: identity.kind === 'user' ? identity.user.id : null,
      rootToken: identity.kind === 'root' ? this.options.adminAuth.fingerprint() : null,
      csrfHash: hashKey(csrfToken),
      createdAt: now,
      expiresAt: now + SESSION_LIFETIME_S,
      lastSeenAt: now,
    });
    return { token, csrfToken, maxAge: SESSION_LIFETIME_S };
  }

  /** The live session of a `gw_session` token with its caller, or undefined. */
  async resolve(token: string): Promise<ConsoleCaller | undefined> {
    const session = await this.options.sessions.find(hashKey(token));
    if (!session) return undefined;
    const now = this.now();
    if (session.expiresAt <= now || session.lastSeenAt + SESSION_IDLE_S <= now) {
      await this.options.sessions.delete(session.id);
      return undefined;
    }
    const identity = await this.identityOf(session);
    if (!identity) {
      await this.options.sessions.delete(session.id);
      return undefined;
    }
    if (now - session.lastSeenAt >= TOUCH_INTERVAL_S) await this.options.sessions.touch(session.id, now);
    return { identity, session };
  }

  /** Whether an `X-CSRF-Token` value is the one issued with this session. */
  csrfMatches(session: SessionRecord, presented: string): boolean {
    return hashesEqual(hashKey(presented), session.csrfHash);
  }

  async end(session: SessionRecord): Promise<void> {
    await this.options.sessions.delete(session.id);
  }

  private async identityOf(session: SessionRecord): Promise<ConsoleIdentity | undefined> {
    if (session.userId === null) {
      const current = this.options.adminAuth.fingerprint();
      return session.rootToken !== null && hashesEqual(session.rootToken, current)
        ? { kind: 'root' }
        : undefined;
    }
    const user = await this.options.users.find(session.userId);
    if (!user || user.status !== 'enabled') return undefined;
    return { kind: 'user', user };
  }
}
