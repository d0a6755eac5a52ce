import type { Repositories } from '../../src/store/repositories.js';

/** An enabled user with `balance` and one key: capped at `quota`, or unlimited when it is null. */
export async function seedUserWithKey(
  repositories: Repositories,
  options: { balance: number; quota: number | null },
) {
  const user = await repositories.users.create({
    username: `u${Math.random()}`,
    passwordHash: null,
    role: 'user',
    group: 'default',
    balance: options.balance,
    language: null,
    status: 'enabled',
  });
  const key = await repositories.keys.create({
    userId: user.id,
    name: '',
    keyHash: `${Math.random()}`,
    keyHint: '',
    status: 'enabled',
    expiresAt: null,
    unlimitedQuota: options.quota === null,
    quota: options.quota ?? 0,
    modelLimits: null,
    ipAllowList: null,
    group: null,
    rpm: null,
    tpm: null,
  });
  return { user, key };
}
