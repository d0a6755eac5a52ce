import { isDeepStrictEqual } from 'node:util';
import { sql, type Kysely } from 'kysely';
import { maskSecret } from '../admin/mask-secret.js';
import type { ChangeTopic } from '../events/change-feed.js';
import type { Store } from '../store/database.js';
import {
  CONFIG_FILE_STATE,
  type ManagedEntitiesRepository,
  type ManagedKind,
} from '../store/managed-entities-repository.js';
import { createRepositories } from '../store/repositories.js';
import type { Database } from '../store/schema.js';
import type { ConfigFile } from './config-file-schema.js';
import {
  channelsSync,
  groupsSync,
  guardrailsSync,
  modelsSync,
  pricesSync,
  virtualModelsSync,
  type FileEntry,
  type KindSync,
} from './entity-syncs.js';

/** One member of a changed entity, as the file writes it; secrets masked. */
export interface MemberChange {
  member: string;
  before: unknown;
  after: unknown;
}

/** One entity an apply created, changed or deleted. */
export interface ConfigChange {
  kind: ManagedKind;
  key: string;
  /** `manage`: made through the API, as the file declares it, now the file's; `release`: a setting back to the API. */
  action: 'create' | 'change' | 'delete' | 'manage' | 'release';
  /** For a change: each member that differs. */
  members?: MemberChange[];
}

/** Members shown masked wherever changes are shown. */
const SECRET_MEMBERS: Partial<Record<ManagedKind, readonly string[]>> = {
  channels: ['keys'],
  settings: ['webhook_secret', 'stripe_secret_key', 'stripe_webhook_secret'],
};

/** The change topics of every kind the file declares. */
export function declaredTopics(config: ConfigFile): ChangeTopic[] {
  const kinds = (Object.keys(TOPICS) as ManagedKind[]).filter((kind) => config[kind] !== undefined);
  return [...new Set(kinds.map((kind) => TOPICS[kind]))];
}

/** What an apply would do, found by applying and rolling back, so a plan is exactly what apply does. */
class PlanOnly extends Error {
  constructor(readonly changes: ConfigChange[]) {
    super('plan only: rolled back');
  }
}

const TOPICS: Record<ManagedKind, ChangeTopic> = {
  channels: 'channels',
  prices: 'prices',
  groups: 'groups',
  models: 'models',
  virtual_models: 'models',
  guardrails: 'guardrails',
  settings: 'settings',
};

/**
 * Brings the database to what a configuration file declares (admin-api section 13), in one
 * transaction: each declared entity, matched by its natural key, is created, or changed where it
 * differs (ids stay, and an unchanged file writes nothing), and marked `managed`. An entity the
 * file managed and no longer declares is deleted; with `prune`, so is every entity of a declared
 * kind that the API made. On PostgreSQL the apply holds an advisory lock and reads inside it, so
 * instances starting together with one file apply it once and agree. Resolves to what changed,
 * and the change topics that tell the caches.
 */
export async function applyConfigFile(
  store: Store,
  file: string,
  config: ConfigFile,
  options: { planOnly?: boolean } = {},
): Promise<{ changes: ConfigChange[]; topics: ChangeTopic[] }> {
  const changes = await applyInTransaction(store, file, config, options.planOnly ?? false).catch(
    (error: unknown) => {
      if (error instanceof PlanOnly) return error.changes;
      throw error;
    },
  );
  return { changes, topics: [...new Set(changes.map((change) => TOPICS[change.kind]))] };
}

function applyInTransaction(store: Store, file: string, config: ConfigFile, planOnly: boolean) {
  return store.db.transaction().execute(async (trx) => {
    if (store.dialect === 'postgres')
      await sql`select pg_advisory_xact_lock(hashtext('gateway configuration file ' || coalesce(current_schema(), '')))`.execute(
        trx,
      );
    const repositories = createRepositories({ ...store, db: trx });
    const applied: ConfigChange[] = [];
    const run = async <Entity>(sync: KindSync<Entity>) =>
      applied.push(...(await syncKind(repositories.managedEntities, sync, config.prune)));
    if (config.groups) await run(await groupsSync(repositories, config.groups));
    if (config.prices) await run(await pricesSync(repositories, config.prices));
    if (config.models) await run(await modelsSync(repositories, config.models));
    if (config.channels) await run(await channelsSync(repositories, config.channels));
    if (config.virtual_models) await run(await virtualModelsSync(repositories, config.virtual_models));
    if (config.guardrails) await run(await guardrailsSync(repositories, config.guardrails));
    if (config.settings)
      applied.push(...(await syncSettings(trx, repositories.managedEntities, config.settings, config.prune)));
    if ((await repositories.systemState.get(CONFIG_FILE_STATE)) !== file)
      await repositories.systemState.put(CONFIG_FILE_STATE, file);
    if (planOnly) throw new PlanOnly(applied);
    return applied;
  });
}

/** The members of `after` that differ from `before` (both as the file writes them). */
function memberChanges(kind: ManagedKind, before: FileEntry, after: FileEntry): MemberChange[] {
  const changes: MemberChange[] = [];
  for (const member of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (isDeepStrictEqual(before[member] ?? null, after[member] ?? null)) continue;
    const shown = (value: unknown) =>
      SECRET_MEMBERS[kind]?.includes(member) ? masked(value) : (value ?? null);
    changes.push({ member, before: shown(before[member]), after: shown(after[member]) });
  }
  return changes;
}

function masked(value: unknown): unknown {
  if (typeof value === 'string') return maskSecret(value);
  if (Array.isArray(value)) return value.map(masked);
  return value ?? null;
}

async function syncKind<Entity>(owners: ManagedEntitiesRepository, sync: KindSync<Entity>, prune: boolean) {
  const managed = await owners.keysOf(sync.kind);
  const stored = new Map<string, Entity>();
  for (const entity of sync.stored) stored.set(sync.keyOf(entity), entity);
  const declared = new Set<string>();
  const changes: ConfigChange[] = [];
  for (const entity of sync.desired) {
    const key = sync.keyOf(entity);
    declared.add(key);
    const current = stored.get(key);
    if (!current) {
      await sync.create(entity);
      changes.push({ kind: sync.kind, key, action: 'create' });
    } else if (!sync.same(entity, current)) {
      await sync.change(entity, current);
      const members = memberChanges(sync.kind, sync.entry(current), sync.entry(entity));
      changes.push({ kind: sync.kind, key, action: 'change', members });
    } else if (!managed.has(key)) changes.push({ kind: sync.kind, key, action: 'manage' });
    if (!managed.has(key)) await owners.mark(sync.kind, key, 'config');
  }
  for (const [key, entity] of stored) {
    if (declared.has(key) || !(managed.has(key) || prune)) continue;
    await sync.remove(entity);
    changes.push({ kind: sync.kind, key, action: 'delete' });
  }
  return changes;
}

/**
 * Settings are values, not entities: a declared one is written where it differs and marked; one
 * the file no longer declares keeps its value and is the API's again; with `prune`, the stored
 * values the file does not declare are deleted (the environment's or the default applies).
 */
async function syncSettings(
  db: Kysely<Database>,
  owners: ManagedEntitiesRepository,
  settings: NonNullable<ConfigFile['settings']>,
  prune: boolean,
): Promise<ConfigChange[]> {
  const managed = await owners.keysOf('settings');
  const stored = new Map(
    (await db.selectFrom('settings').select(['name', 'value']).execute()).map((row) => [row.name, row.value]),
  );
  const changes: ConfigChange[] = [];
  for (const [name, value] of Object.entries(settings)) {
    if (value === undefined) continue;
    const text = JSON.stringify(value);
    if (stored.get(name) !== text || !managed.has(name)) {
      await db
        .insertInto('settings')
        .values({ name, value: text, managed: 'config' })
        .onConflict((conflict) => conflict.column('name').doUpdateSet({ value: text, managed: 'config' }))
        .execute();
      const before = stored.get(name);
      if (before !== text)
        changes.push({
          kind: 'settings',
          key: name,
          action: 'change',
          members: memberChanges(
            'settings',
            { [name]: before === undefined ? undefined : JSON.parse(before) },
            { [name]: value },
          ),
        });
      else changes.push({ kind: 'settings', key: name, action: 'manage' });
    }
  }
  for (const name of stored.keys()) {
    if (Object.hasOwn(settings, name)) continue;
    if (prune) {
      await db.deleteFrom('settings').where('name', '=', name).execute();
      changes.push({ kind: 'settings', key: name, action: 'delete' });
    } else if (managed.has(name)) {
      await owners.mark('settings', name, 'api');
      changes.push({ kind: 'settings', key: name, action: 'release' });
    }
  }
  return changes;
}
