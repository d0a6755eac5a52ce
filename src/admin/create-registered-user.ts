import { hashSecretCode } from '../auth/secret-code.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { Store } from '../store/database.js';
import { unixNow } from '../store/json-column.js';
import type { Repositories } from '../store/repositories.js';
import { UsersRepository, type UserRecord } from '../store/users-repository.js';
import { invalidField } from './admin-error.js';
import { isUniqueViolation } from './is-unique-violation.js';

export interface Registration {
  username: string;
  passwordHash: string;
  /** The invite code presented, when there was one. */
  inviteCode: string | undefined;
}

/**
 * Creates a signed-up user (admin-api section 15) in one transaction: the invite code is claimed
 * first, in the one statement that tells concurrent sign-ups apart, then the user is created (the
 * case-insensitive unique index refuses a taken name), the code names its user, and the sign-up
 * balance is credited. Any refusal rolls back all of it, so a code is never used up by a sign-up that
 * failed. An invite is checked before the name, so that without one nobody learns which names exist.
 */
export async function createRegisteredUser(options: {
  store: Store;
  repositories: Pick<Repositories, 'inviteCodes' | 'balanceCredits'>;
  registration: Registration;
  inviteRequired: boolean;
  /** nano-USD credited as the `signup` credit; none when 0. */
  startingBalance: number;
}): Promise<UserRecord> {
  const { inviteCodes, balanceCredits } = options.repositories;
  const { username, passwordHash, inviteCode } = options.registration;
  return options.store.db.transaction().execute(async (trx) => {
    let inviteId: number | undefined;
    if (options.inviteRequired) {
      if (inviteCode !== undefined)
        inviteId = await inviteCodes.claim(trx, hashSecretCode(inviteCode), unixNow());
      if (inviteId === undefined) throw new GatewayError('invalid_invite_code', {}, { param: 'invite_code' });
    }
    const users = new UsersRepository(trx);
    const created = await users
      .create({
        username,
        passwordHash,
        role: 'user',
        group: 'default',
        balance: 0,
        language: null,
        status: 'enabled',
      })
      .catch((error: unknown) => {
        if (isUniqueViolation(error)) throw invalidField('username', 'is already taken');
        throw error;
      });
    if (inviteId !== undefined) await inviteCodes.recordUser(trx, inviteId, created.id);
    if (options.startingBalance > 0) {
      const credit = {
        userId: created.id,
        amount: options.startingBalance,
        kind: 'signup',
        reference: null,
      } as const;
      await balanceCredits.credit(trx, credit);
    }
    return (await users.find(created.id)) ?? created;
  });
}
