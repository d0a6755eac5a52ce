import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { MAX_USD } from '../billing/money.js';
import { GatewayError } from '../errors/gateway-error.js';
import { redeemCode, type Redemption } from '../payments/redeem-code.js';
import type { GatewayServices } from '../services.js';
import { invalidField, notFound } from './admin-error.js';
import { beginThrottledAttempt } from './begin-throttled-attempt.js';
import { accountOf, serializeIdentity } from './console-identity.js';
import { parseBody } from './parse-body.js';

const redeemSchema = z.strictObject({ code: z.string().min(1).max(256) });

/**
 * `POST /api/me/redeem` (admin-api section 15): credits a redemption code's amount to the caller and
 * answers their account with the new balance. Failed attempts are throttled as sign-ins are, by the
 * client address and the account, counted apart from sign-ins: mistyped codes never lock anyone out
 * of the console.
 */
export function registerRedeemRoute(app: FastifyInstance, services: GatewayServices): void {
  const throttle = services.loginThrottle;

  app.post('/me/redeem', async (request) => {
    const account = accountOf(request);
    const { code } = parseBody(request.body, redeemSchema);
    const subjects = [`redeem-ip:${request.gateway.clientIp}`, `redeem-user:${account.id}`];
    const ticket = await beginThrottledAttempt(throttle, subjects);
    const redemption = await redeemCode({
      store: services.store,
      repositories: services.repositories,
      userId: account.id,
      code,
    });
    if (redemption.outcome !== 'credited') {
      // Only a code that was not valid is a failed guess; the other refusals count for nothing.
      if (redemption.outcome !== 'invalid') await throttle.succeed(ticket, []);
      throw refusalOf(redemption, account.id);
    }
    await throttle.succeed(ticket, []);
    // Cached principals hold the balance that requests are checked against.
    await services.changes.publish('users');
    const user = await services.repositories.users.find(account.id);
    if (!user) throw notFound('user', account.id);
    return serializeIdentity({ kind: 'user', user });
  });
}

function refusalOf(redemption: Exclude<Redemption, { outcome: 'credited' }>, userId: number): GatewayError {
  switch (redemption.outcome) {
    case 'invalid':
      return new GatewayError('invalid_redemption_code', {}, { param: 'code' });
    case 'user-gone':
      return notFound('user', userId);
    case 'balance-too-high':
      return invalidField('code', `would raise the balance above ${MAX_USD} USD`);
    default: {
      const unknown: never = redemption;
      return unknown;
    }
  }
}
