import type { FastifyInstance } from 'fastify';
import { MAX_USD, NANO_PER_USD } from '../billing/money.js';
import { hashPassword } from '../auth/password-hash.js';
import type { GatewayServices } from '../services.js';
import type { UserChanges, UsersRepository } from '../store/users-repository.js';
import { invalidField, notFound } from './admin-error.js';
import { isUniqueViolation } from './is-unique-violation.js';
import { parseBody } from './parse-body.js';
import { parseIdParam } from './parse-id-param.js';
import { parseListQuery } from './parse-query.js';
import { serializeUser } from './serialize-user.js';
import { createUserSchema, topUpSchema, updateUserSchema, USER_READ_ONLY_FIELDS } from './user-schemas.js';

const MAX_BALANCE_NANO = MAX_USD * NANO_PER_USD;

/** `/api/users` (admin-api section 2, Users). */
export function registerUserRoutes(app: FastifyInstance, services: GatewayServices): void {
  const { users, sessions, balanceCredits } = services.repositories;
  const findUser = async (params: unknown) => {
    const id = parseIdParam(params, 'user');
    const user = await users.find(id);
    if (!user) throw notFound('user', id);
    return user;
  };

  app.get('/users', async (request) => {
    const rows = await users.list(parseListQuery(request.query));
    return { data: rows.map(serializeUser) };
  });

  app.get('/users/:id', async (request) => serializeUser(await findUser(request.params)));

  app.post('/users', async (request, reply) => {
    const body = parseBody(request.body, createUserSchema, { readOnly: USER_READ_ONLY_FIELDS });
    await ensureUsernameFree(users, body.username, undefined);
    const { password, max_concurrency: maxConcurrency, low_balance_alert: lowBalanceAlert, ...fields } = body;
    const passwordHash = password === undefined ? null : await hashPassword(password);
    const user = await withUniqueUsername(() =>
      users.create({ ...fields, maxConcurrency, lowBalanceAlert, passwordHash }),
    );
    await services.changes.publish('users');
    return reply.code(201).send(serializeUser(user));
  });

  app.patch('/users/:id', async (request) => {
    const id = (await findUser(request.params)).id;
    const body = parseBody(request.body, updateUserSchema, { readOnly: USER_READ_ONLY_FIELDS });
    if (body.username !== undefined) await ensureUsernameFree(users, body.username, id);
    const { password, max_concurrency: maxConcurrency, low_balance_alert: lowBalanceAlert, ...fields } = body;
    const changes: UserChanges = { ...fields, maxConcurrency, lowBalanceAlert };
    if (password !== undefined) changes.passwordHash = await hashPassword(password);
    const user = await withUniqueUsername(() => users.update(id, changes));
    if (!user) throw notFound('user', id);
    // Console sessions end with a new password or a disabled account (admin-api section 8).
    if (password !== undefined || user.status === 'disabled') await sessions.deleteForUser(id);
    await services.changes.publish('users');
    return serializeUser(user);
  });

  app.delete('/users/:id', async (request) => {
    const id = parseIdParam(request.params, 'user');
    // The sessions would go with the user by foreign key anyway; ending them first says so here.
    await sessions.deleteForUser(id);
    const user = await users.delete(id);
    if (!user) throw notFound('user', id);
    // The user's keys went with it (foreign key cascade), so cached keys must go too.
    await services.changes.publish('users');
    await services.changes.publish('keys');
    return serializeUser(user);
  });

  app.post('/users/:id/topup', async (request) => {
    const current = await findUser(request.params);
    const { amount } = parseBody(request.body, topUpSchema);
    if (current.balance + amount > MAX_BALANCE_NANO) {
      throw invalidField('amount', `would raise the balance above ${MAX_USD} USD`);
    }
    const credit = { userId: current.id, amount, kind: 'admin', reference: null } as const;
    const credited = await services.store.db
      .transaction()
      .execute((trx) => balanceCredits.credit(trx, credit));
    const user = credited ? await users.find(current.id) : undefined;
    if (!user) throw notFound('user', current.id);
    await services.changes.publish('users');
    return serializeUser(user);
  });
}

async function ensureUsernameFree(users: UsersRepository, username: string, ownId: number | undefined) {
  const holder = await users.findByUsername(username);
  if (holder && holder.id !== ownId) throw usernameTaken();
}

/** The check above can race with another write; the unique index has the last word. */
async function withUniqueUsername<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error)) throw usernameTaken();
    throw error;
  }
}

function usernameTaken() {
  return invalidField('username', 'is already taken');
}
