import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { hashPassword } from '../auth/password-hash.js';
import type { GatewayServices } from '../services.js';
import type { UserChanges } from '../store/users-repository.js';
import { notFound } from './admin-error.js';
import { accountOf, callerOf, serializeIdentity } from './console-identity.js';
import { parseBody } from './parse-body.js';
import { USER_READ_ONLY_FIELDS } from './user-schemas.js';

const updateMeSchema = z.strictObject({
  password: z.string().min(1).max(1024).optional(),
  language: z.enum(['en', 'zh-CN']).nullable().optional(),
});

/** Fields a user sees on `/api/me` but only an admin may change. */
const ADMIN_ONLY_FIELDS = [
  ...USER_READ_ONLY_FIELDS,
  'username',
  'role',
  'group',
  'balance',
  'status',
  'budgets',
  'max_concurrency',
  'low_balance_alert',
];

/** `/api/me` (admin-api section 8): the caller's own account; users change only password and language. */
export function registerMeRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { users, sessions } = services.repositories;

  app.get('/me', async (request) => serializeIdentity(callerOf(request).identity));

  app.patch('/me', async (request) => {
    const account = accountOf(request);
    const body = parseBody(request.body, updateMeSchema, { readOnly: ADMIN_ONLY_FIELDS });
    const changes: UserChanges = {};
    if (body.language !== undefined) changes.language = body.language;
    if (body.password !== undefined) changes.passwordHash = await hashPassword(body.password);
    const user = await users.update(account.id, changes);
    if (!user) throw notFound('user', account.id);
    // A new password ends every other session of the user; the one that changed it goes on.
    if (body.password !== undefined) await sessions.deleteForUser(user.id, callerOf(request).session?.id);
    await services.changes.publish('users');
    return serializeIdentity({ kind: 'user', user });
  });
}
