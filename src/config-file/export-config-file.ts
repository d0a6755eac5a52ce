import { stringify } from 'yaml';
import type { Repositories } from '../store/repositories.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
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

/** An environment variable the exported file asks for, and what it must hold. */
export interface ExportedVariable {
  name: string;
  holds: string;
}

/**
 * The database's channels, prices, groups, models, virtual models, guardrails and stored settings
 * as a configuration file (admin-api section 13) that `config apply` reproduces on an empty
 * database. Secrets are not written: each channel key becomes `${CHANNEL_<NAME>_KEY}` (with `_1`,
 * `_2`, ... for several), the webhook secret `${WEBHOOK_SECRET}`, the Stripe secrets
 * `${STRIPE_SECRET_KEY}` and `${STRIPE_WEBHOOK_SECRET}`; a comment at the top lists them.
 * A channel health took out of service is written `enabled`: the file says what is wanted, health
 * decides the rest.
 */
export async function exportConfigFile(
  repositories: Repositories,
  db: Kysely<Database>,
  now = new Date(),
): Promise<{ text: string; variables: ExportedVariable[] }> {
  const variables: ExportedVariable[] = [];
  const variable = (base: string, holds: string) => {
    let name = base;
    for (let suffix = 2; variables.some((taken) => taken.name === name); suffix += 1)
      name = `${base}_${suffix}`;
    variables.push({ name, holds });
    return `\${${name}}`;
  };

  // The syncs with nothing declared: what is stored, and how the file writes it.
  const entries = <Entity>(sync: KindSync<Entity>, order: (a: Entity, b: Entity) => number) =>
    [...sync.stored].sort(order).map((entity) => withoutNulls(escapeReferences(sync.entry(entity))));
  const byKey =
    <Entity>(sync: KindSync<Entity>) =>
    (a: Entity, b: Entity) =>
      sync.keyOf(a) < sync.keyOf(b) ? -1 : sync.keyOf(a) > sync.keyOf(b) ? 1 : 0;
  const channels = await channelsSync(repositories, []);
  const channelEntries = entries(channels, (a, b) => a.id! - b.id!).map((channel) => {
    const name = String(channel.name);
    const base = `CHANNEL_${name.toUpperCase().replace(/[^A-Z0-9]+/g, '_')}_KEY`;
    const keys = channel.keys as string[];
    return {
      ...channel,
      keys: keys.map((_, index) =>
        variable(
          keys.length === 1 ? base : `${base}_${index + 1}`,
          keys.length === 1
            ? `the key of channel "${name}"`
            : `key ${index + 1} of ${keys.length} of channel "${name}"`,
        ),
      ),
      status: channel.status === 'auto_disabled' ? 'enabled' : channel.status,
    };
  });
  const kinds = {
    groups: await groupsSync(repositories, []),
    prices: await pricesSync(repositories, []),
    models: await modelsSync(repositories, []),
    virtual_models: await virtualModelsSync(repositories, []),
    guardrails: await guardrailsSync(repositories, []),
  };
  const settings: Record<string, unknown> = {};
  for (const row of await db.selectFrom('settings').select(['name', 'value']).orderBy('name').execute()) {
    const value: unknown = JSON.parse(row.value);
    const secret = Object.hasOwn(SECRET_SETTINGS, row.name) ? SECRET_SETTINGS[row.name] : undefined;
    settings[row.name] =
      secret && typeof value === 'string' ? variable(secret.variable, secret.holds) : escapeReferences(value);
  }

  const document = {
    channels: channelEntries,
    prices: entries(kinds.prices, byKey(kinds.prices)),
    groups: entries(kinds.groups, byKey(kinds.groups)),
    models: entries(kinds.models, byKey(kinds.models)),
    virtual_models: entries(kinds.virtual_models, byKey(kinds.virtual_models)),
    guardrails: entries(kinds.guardrails, byKey(kinds.guardrails)),
    settings,
  };
  const header = [
    `# The gateway's configuration, exported ${now.toISOString()}.`,
    ...(variables.length === 0
      ? ['# It holds no secret: apply it as it is.']
      : [
          '# Secrets are not written here. Set these environment variables before applying it:',
          ...variables.map(({ name, holds }) => `#   ${name}: ${holds}`),
        ]),
  ];
  return { text: `${header.join('\n')}\n${stringify(document, { lineWidth: 0 })}`, variables };
}

/** Settings written as references to environment variables, never in clear. */
const SECRET_SETTINGS: Record<string, { variable: string; holds: string }> = {
  webhook_secret: { variable: 'WEBHOOK_SECRET', holds: 'the webhook signing secret' },
  stripe_secret_key: { variable: 'STRIPE_SECRET_KEY', holds: 'the Stripe secret API key' },
  stripe_webhook_secret: {
    variable: 'STRIPE_WEBHOOK_SECRET',
    holds: "the Stripe webhook endpoint's signing secret",
  },
};

/** The file's own `null`s are its defaults: members left out read the same. */
function withoutNulls(entry: FileEntry): FileEntry {
  return Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== null));
}

/**
 * Strings as the file must spell them so that reading them gives them back: where a `$$` or a
 * `${` would be taken for a reference (interpolate-environment.ts), every `$` is doubled.
 */
function escapeReferences<Value>(value: Value): Value {
  if (typeof value === 'string')
    return (/\$[${]/.test(value) ? value.replaceAll('$', '$$$$') : value) as Value;
  if (Array.isArray(value)) return value.map(escapeReferences) as Value;
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, member]) => [key, escapeReferences(member)]),
    ) as Value;
  return value;
}
