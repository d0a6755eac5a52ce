import type { FastifyRequest } from 'fastify';
import { GatewayError } from '../errors/gateway-error.js';
import type { AdminAuthenticator } from './admin-authenticator.js';
import { CSRF_COOKIE, readCookie, SESSION_COOKIE } from './console-cookies.js';
import { isAdmin, type ConsoleCaller } from './console-identity.js';
import type { ConsoleSessions } from './console-sessions.js';

const BEARER = /^bearer\s+(\S+)\s*$/i;
const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * What a route group asks of its callers: `admin` (the management API: the root admin, or a
 * session of an `admin` user), `signed-in` (anyone with a session or the admin token), `anyone`
 * (the caller is identified when possible, as sign-out needs).
 */
export type ApiRequirement = 'admin' | 'signed-in' | 'anyone';

/**
 * The `onRequest` hook of an `/api` route group (admin-api sections 1 and 8). An `Authorization`
 * header alone decides when present: the root admin token as a bearer token. Otherwise the
 * `gw_session` cookie names a session; a state-changing call through a session must then carry
 * `X-CSRF-Token` equal to the `gw_csrf` cookie and to the token issued with the session.
 */
export function authorizeApi(options: {
  adminAuth: AdminAuthenticator;
  sessions: ConsoleSessions;
  requirement: ApiRequirement;
}) {
  const { adminAuth, sessions, requirement } = options;
  return async function authorizeApiRequest(request: FastifyRequest): Promise<void> {
    const caller = await identify(request, { adminAuth, sessions });
    if (!caller) {
      if (requirement === 'anyone') return;
      throw new GatewayError('admin_unauthorized');
    }
    // The account's language applies to the refusals below too.
    if (caller.identity.kind === 'user' && caller.identity.user.language) {
      request.gateway.language = caller.identity.user.language;
    }
    if (caller.session && STATE_CHANGING.has(request.method)) {
      if (!csrfHeaderValid(request, caller, sessions)) throw new GatewayError('csrf_failed');
    }
    if (requirement === 'admin' && !isAdmin(caller.identity)) {
      throw new GatewayError('forbidden', { method: request.method, path: request.url.split('?')[0] ?? '' });
    }
    request.consoleCaller = caller;
  };
}

async function identify(
  request: FastifyRequest,
  options: { adminAuth: AdminAuthenticator; sessions: ConsoleSessions },
): Promise<ConsoleCaller | undefined> {
  const authorization = request.headers.authorization;
  if (authorization !== undefined) {
    const token = BEARER.exec(authorization)?.[1];
    return options.adminAuth.verify(token) ? { identity: { kind: 'root' }, session: undefined } : undefined;
  }
  const token = readCookie(request.headers.cookie, SESSION_COOKIE);
  return token === undefined ? undefined : options.sessions.resolve(token);
}

function csrfHeaderValid(request: FastifyRequest, caller: ConsoleCaller, sessions: ConsoleSessions): boolean {
  const header = request.headers['x-csrf-token'];
  const cookie = readCookie(request.headers.cookie, CSRF_COOKIE);
  if (typeof header !== 'string' || header === '' || header !== cookie || !caller.session) return false;
  return sessions.csrfMatches(caller.session, header);
}
