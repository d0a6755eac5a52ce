import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.js';
import type { SessionRecord } from '../store/sessions-repository.js';
import type { UserRecord } from '../store/users-repository.js';
import { serializeUser } from './serialize-user.js';

/**
 * Who calls the management API: the root admin (the admin token, as a bearer token or through a
 * session it signed in), or a user through a console session.
 */
export type ConsoleIdentity = { kind: 'root' } | { kind: 'user'; user: UserRecord };

export interface ConsoleCaller {
  identity: ConsoleIdentity;
  /** The session, when the call came with the session cookie; undefined for bearer calls. */
  session: SessionRecord | undefined;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the `/api` route groups' authorization hook (authorize-api.ts). */
    consoleCaller: ConsoleCaller | undefined;
  }
}

/** The root admin has no row in `users`; it is shown as this built-in admin, id 0. */
export const ROOT_ADMIN_ID = 0;

export function isAdmin(identity: ConsoleIdentity): boolean {
  return identity.kind === 'root' || identity.user.role === 'admin';
}

/** The caller the route group's hook identified; routes behind a hook that requires one. */
export function callerOf(request: FastifyRequest): ConsoleCaller {
  const caller = request.consoleCaller;
  if (!caller) throw new GatewayError('admin_unauthorized');
  return caller;
}

/** The user whose own data `/api/me` routes read: 0 (owner of nothing) for the root admin. */
export function ownerIdOf(request: FastifyRequest): number {
  const { identity } = callerOf(request);
  return identity.kind === 'root' ? ROOT_ADMIN_ID : identity.user.id;
}

/** The caller's own account, for routes that change it; the root admin has none. */
export function accountOf(request: FastifyRequest): UserRecord {
  const { identity } = callerOf(request);
  if (identity.kind === 'root') throw new GatewayError('root_admin_has_no_account');
  return identity.user;
}

/** What `/api/auth/login`, `/api/auth/me` and `/api/me` answer: the user, and whether it is the root admin. */
export function serializeIdentity(identity: ConsoleIdentity) {
  if (identity.kind === 'user') return { ...serializeUser(identity.user), root: false };
  return {
    id: ROOT_ADMIN_ID,
    username: 'root',
    role: 'admin' as const,
    group: 'default',
    balance: 0,
    used: 0,
    language: null,
    status: 'enabled' as const,
    created_at: 0,
    root: true,
  };
}
