import path from 'node:path';

/**
 * The built gateway's store (`dist/`) in `dataDir`, migrated, with the one user (id 1, a balance
 * no bench run spends) and the one key without a cap (id 1) whose money the bench's ledger moves.
 */
export async function openLedgerAccount(root: string, dataDir: string) {
  const { openStore } = await import(path.join(root, 'dist/store/database.js'));
  const { migrateToLatest } = await import(path.join(root, 'dist/store/migrate.js'));
  const store = openStore({ dataDir });
  await migrateToLatest(store);
  store.sqlite
    .prepare(
      `insert into users (id, username, group_name, balance, used, role, status, created_at)
       values (1, 'bench', 'default', 1000000000000000, 0, 'user', 'active', 0)`,
    )
    .run();
  store.sqlite
    .prepare(
      `insert into api_keys (id, user_id, key_hash, key_hint, name, status, unlimited_quota, quota, used_quota, created_at)
       values (1, 1, 'bench', 'bench', 'bench', 'active', 1, 0, 0, 0)`,
    )
    .run();
  return { store, userId: 1, keyId: 1 };
}
