import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword } from '../auth/password-hash.js';
import { usdToNano } from '../billing/money.js';
import { GatewayError } from '../errors/gateway-error.js';
import { attemptSubjects } from '../limits/login-throttle.js';
import type { GatewayServices } from '../services.js';
import type { AuthRouteOptions } from './auth-routes.js';
import { beginThrottledAttempt } from './begin-throttled-attempt.js';
import { sessionCookies } from './console-cookies.js';
import { serializeIdentity } from './console-identity.js';
import { createRegisteredUser } from './create-registered-user.js';
import { parseBody } from './parse-body.js';

/** The longest password sign-in accepts (auth-routes.ts), so every registered password can sign in. */
const MAX_PASSWORD_LENGTH = 1024;

const registerSchema = z.strictObject({
  username: z
    .string()
    .min(3)
    .max(32)
    .regex(/^[A-Za-z0-9_.-]+$/, 'may contain only letters A-Z and a-z, digits, "_", "." and "-"'),
  password: z.string().min(8).max(MAX_PASSWORD_LENGTH),
  invite_code: z.string().min(1).max(256).optional(),
});

/**
 * `POST /api/auth/register` (admin-api section 15): open to anyone while `registration` is `open`,
 * to holders of an unused invite code while it is `invite`. The new user is signed in as by
 * `/api/auth/login`. Attempts count toward the sign-in throttle of the address and the username:
 * a refused one (a wrong invite code, a taken name) counts as a failed sign-in.
 */
export function registerSignUpRoute(
  app: FastifyInstance,
  services: GatewayServices,
  auth: Pick<AuthRouteOptions, 'sessions' | 'cameOverHttps'>,
): void {
  app.post('/auth/register', async (request, reply) => {
    // As with sign-in, another site's page must not sign the browser in to an account it made.
    if (request.headers['sec-fetch-site'] === 'cross-site') throw new GatewayError('cross_site_sign_in');
    const settings = services.settings.get();
    if (settings.registration === 'closed') throw new GatewayError('registration_closed');
    const body = parseBody(request.body, registerSchema);
    const throttle = services.loginThrottle;
    const subjects = attemptSubjects({ username: body.username, clientIp: request.gateway.clientIp });
    const ticket = await beginThrottledAttempt(throttle, subjects);
    const user = await createRegisteredUser({
      store: services.store,
      repositories: services.repositories,
      registration: {
        username: body.username,
        passwordHash: await hashPassword(body.password),
        inviteCode: body.invite_code,
      },
      inviteRequired: settings.registration === 'invite',
      startingBalance: usdToNano(settings.new_user_balance),
    });
    await throttle.succeed(ticket, []);
    await services.changes.publish('users');
    const identity = { kind: 'user', user } as const;
    const started = await auth.sessions.start(identity);
    reply.header('set-cookie', sessionCookies(started, auth.cameOverHttps(request.raw)));
    return reply.code(201).send(serializeIdentity(identity));
  });
}
