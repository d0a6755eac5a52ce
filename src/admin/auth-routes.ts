import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { GatewayError } from '../errors/gateway-error.js';
import { invalidField } from './admin-error.js';
import { CSRF_COOKIE, serializeCookie, SESSION_COOKIE, sessionCookies } from './console-cookies.js';
import { callerOf, serializeIdentity } from './console-identity.js';
import type { ConsoleSessions } from './console-sessions.js';
import { parseBody } from './parse-body.js';
import type { SignInCredentials, SignInVerifier } from './sign-in-verifier.js';

export interface AuthRouteOptions {
  sessions: ConsoleSessions;
  verifier: SignInVerifier;
  /** Whether the request reached the gateway over HTTPS: the cookies are then `Secure`. */
  cameOverHttps: (request: FastifyRequest['raw']) => boolean;
}

const loginSchema = z.strictObject({
  username: z.string().min(1).max(64).optional(),
  password: z.string().min(1).max(1024).optional(),
  token: z.string().min(1).max(1024).optional(),
});

/** `POST /api/auth/login` (admin-api section 8): needs no credentials and no CSRF header. */
export function registerLoginRoute(app: FastifyInstance, options: AuthRouteOptions): void {
  app.post('/auth/login', async (request, reply) => {
    // A page of another site could sign the browser in to an account of its choosing (login
    // CSRF): browsers name such requests in `Sec-Fetch-Site`, which no page can set.
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new GatewayError('cross_site_sign_in');
    const credentials = readCredentials(parseBody(request.body, loginSchema));
    const identity = await options.verifier.verify(credentials, request.gateway.clientIp);
    const started = await options.sessions.start(identity);
    reply.header('set-cookie', sessionCookies(started, options.cameOverHttps(request.raw)));
    return serializeIdentity(identity);
  });
}

/** `POST /api/auth/logout`: ends the caller's session, if any, and clears the cookies either way. */
export function registerLogoutRoute(app: FastifyInstance, options: AuthRouteOptions): void {
  app.post('/auth/logout', async (request, reply) => {
    const session = request.consoleCaller?.session;
    if (session) await options.sessions.end(session);
    return clearCookies(reply, options.cameOverHttps(request.raw)).code(204).send();
  });
}

/** `GET /api/auth/me`: the signed-in caller, behind a hook that answers 401 to anyone else. */
export function registerAuthMeRoute(app: FastifyInstance): void {
  app.get('/auth/me', async (request) => serializeIdentity(callerOf(request).identity));
}

function readCredentials(body: z.output<typeof loginSchema>): SignInCredentials {
  if (body.token !== undefined) {
    const extra = body.username !== undefined ? 'username' : body.password !== undefined ? 'password' : '';
    if (extra) throw invalidField(extra, 'cannot be combined with token');
    return { token: body.token };
  }
  if (body.username === undefined) throw invalidField('username', 'is required (or token)');
  if (body.password === undefined) throw invalidField('password', 'is required');
  return { username: body.username, password: body.password };
}

function clearCookies(reply: FastifyReply, secure: boolean): FastifyReply {
  return reply.header('set-cookie', [
    serializeCookie(SESSION_COOKIE, '', { maxAge: 0, httpOnly: true, secure }),
    serializeCookie(CSRF_COOKIE, '', { maxAge: 0, httpOnly: false, secure }),
  ]);
}
