import type { Kysely, Migration } from 'kysely';
import type { DialectName } from '../database.js';

/** Users, keys, channels, prices, groups, settings, system state and usage logs. */
export function initialMigration(dialect: DialectName): Migration {
  const serial = dialect === 'postgres' ? 'bigserial' : 'integer';
  const bool = dialect === 'postgres' ? 'boolean' : 'integer';
  const real = dialect === 'postgres' ? 'double precision' : 'real';

  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('users')
        .addColumn('id', serial, (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('username', 'text', (c) => c.notNull().unique())
        .addColumn('password_hash', 'text')
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('group_name', 'text', (c) => c.notNull())
        .addColumn('balance', 'bigint', (c) => c.notNull())
        .addColumn('used', 'bigint', (c) => c.notNull())
        .addColumn('language', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('api_keys')
        .addColumn('id', serial, (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('user_id', 'bigint', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_hint', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'bigint')
        .addColumn('unlimited_quota', bool, (c) => c.notNull())
        .addColumn('quota', 'bigint', (c) => c.notNull())
        .addColumn('used_quota', 'bigint', (c) => c.notNull())
        .addColumn('model_limits', 'text')
        .addColumn('ip_allow_list', 'text')
        .addColumn('group_name', 'text')
        .addColumn('rpm', 'integer')
        .addColumn('tpm', 'integer')
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('api_keys_user_id').on('api_keys').column('user_id').execute();

      await db.schema
        .createTable('channels')
        .addColumn('id', serial, (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('base_url', 'text')
        .addColumn('keys', 'text', (c) => c.notNull())
        .addColumn('models', 'text', (c) => c.notNull())
        .addColumn('model_mapping', 'text', (c) => c.notNull())
        .addColumn('groups', 'text', (c) => c.notNull())
        .addColumn('priority', 'integer', (c) => c.notNull())
        .addColumn('weight', 'integer', (c) => c.notNull())
        .addColumn('endpoints', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('prices')
        .addColumn('model', 'text', (c) => c.primaryKey())
        .addColumn('input', 'bigint', (c) => c.notNull())
        .addColumn('output', 'bigint', (c) => c.notNull())
        .addColumn('cached_input', 'bigint')
        .addColumn('cache_write', 'bigint')
        .addColumn('per_request', 'bigint')
        .execute();

      await db.schema
        .createTable('groups')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('ratio', real, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('system_state')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('usage_logs')
        .addColumn('id', serial, (c) =>
          dialect === 'sqlite' ? c.primaryKey().autoIncrement() : c.primaryKey(),
        )
        .addColumn('request_id', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('user_id', 'bigint', (c) => c.notNull())
        .addColumn('key_id', 'bigint', (c) => c.notNull())
        .addColumn('channel_id', 'bigint')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('endpoint', 'text', (c) => c.notNull())
        .addColumn('stream', bool, (c) => c.notNull())
        .addColumn('status_code', 'integer', (c) => c.notNull())
        .addColumn('prompt_tokens', 'bigint', (c) => c.notNull())
        .addColumn('completion_tokens', 'bigint', (c) => c.notNull())
        .addColumn('cached_tokens', 'bigint', (c) => c.notNull())
        .addColumn('cache_write_tokens', 'bigint', (c) => c.notNull())
        .addColumn('reasoning_tokens', 'bigint', (c) => c.notNull())
        .addColumn('cost', 'bigint', (c) => c.notNull())
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('first_byte_ms', 'integer')
        .addColumn('error', 'text')
        .execute();
      await db.schema.createIndex('usage_logs_user_id').on('usage_logs').columns(['user_id', 'id']).execute();
      await db.schema.createIndex('usage_logs_key_id').on('usage_logs').columns(['key_id', 'id']).execute();
      await db.schema.createIndex('usage_logs_model').on('usage_logs').columns(['model', 'id']).execute();
    },
  };
}
