import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../src/admin/is-unique-violation.js';
import type { Store } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { createRepositories } from '../../src/store/repositories.js';
import type { NewUser } from '../../src/store/users-repository.js';
import { storeVariants } from '../helpers/test-stores.js';

/** Migration 0022 on a database that already holds usernames differing only in case. */

const opened: Store[] = [];
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close();
});

const user = (username: string): NewUser => ({
  username,
  passwordHash: null,
  role: 'user',
  group: 'default',
  balance: 0,
  language: null,
  status: 'enabled',
});

/** Takes 0022 back out by hand, as if the database had been left by the version before it. */
async function undoSignUpMigration(store: Store): Promise<void> {
  await sql`drop table invite_codes`.execute(store.db);
  await sql`drop table redemption_codes`.execute(store.db);
  await sql`drop index users_username_case_insensitive`.execute(store.db);
  await sql`alter table users drop column username_case_duplicate`.execute(store.db);
  await sql`delete from kysely_migration where name = '0022-sign-up-and-codes'`.execute(store.db);
}

async function expectRefused(write: Promise<unknown>): Promise<void> {
  const error = await write.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(isUniqueViolation(error), String(error)).toBe(true);
}

describe.each(storeVariants())('usernames unique whatever their case, on $name', (variant) => {
  it('keeps older case duplicates, and refuses every new one', async () => {
    const store = await variant.open();
    opened.push(store);
    await undoSignUpMigration(store);
    const { users } = createRepositories(store);
    const alice = await users.create(user('Alice'));
    const aliceLower = await users.create(user('alice'));
    const aliceUpper = await users.create(user('ALICE'));
    const bob = await users.create(user('bob'));

    await migrateToLatest(store);

    const flags = await store.db
      .selectFrom('users')
      .select(['id', 'username_case_duplicate'])
      .orderBy('id')
      .execute();
    expect(flags.map((row) => [row.id, Number(row.username_case_duplicate)])).toEqual([
      [alice.id, 0],
      [aliceLower.id, 1],
      [aliceUpper.id, 1],
      [bob.id, 0],
    ]);
    // Everyone keeps their name and signs in with it as before.
    for (const name of ['Alice', 'alice', 'ALICE', 'bob'])
      expect(await users.findByUsername(name)).toBeDefined();

    await expectRefused(users.create(user('aLiCe')));
    await expectRefused(users.create(user('BOB')));
    await expectRefused(users.update(bob.id, { username: 'AlIcE' }));
    // A duplicate renamed joins the index: its new name must be free in every case.
    await expectRefused(users.update(aliceLower.id, { username: 'Bob' }));
    const renamed = await users.update(aliceLower.id, { username: 'carol' });
    expect(renamed?.username).toBe('carol');
    await expectRefused(users.create(user('CAROL')));
    expect((await users.create(user('dave'))).username).toBe('dave');
  });
});
