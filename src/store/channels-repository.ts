import type { Kysely, Selectable } from 'kysely';
import { readJsonColumn, readNullableJsonColumn, unixNow } from './json-column.js';
import type { WebhookEvent } from '../events/webhooks/webhook-event.js';
import { WebhookEventsRepository } from './webhook-events-repository.js';
import type { ChannelsTable, Database } from './schema.js';

export type ChannelStatus = 'enabled' | 'disabled' | 'auto_disabled';

export interface ChannelRecord {
  id: number;
  name: string;
  type: string;
  /** null: the vendor's public origin */
  baseUrl: string | null;
  keys: string[];
  models: string[];
  modelMapping: Record<string, string>;
  groups: string[];
  priority: number;
  weight: number;
  endpoints: string[] | null;
  status: ChannelStatus;
  /** The upstream type's own settings (admin-api section 5), validated by its provider. */
  config: ChannelConfig;
  createdAt: number;
}

export type ChannelConfig = Record<string, unknown>;

export type NewChannel = Omit<ChannelRecord, 'id' | 'createdAt'>;
export type ChannelChanges = Partial<NewChannel>;

export class ChannelsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(channel: NewChannel): Promise<ChannelRecord> {
    const row = await this.db
      .insertInto('channels')
      .values({ ...toColumns(channel), created_at: unixNow() })
      .returningAll()
      .executeTakeFirstOrThrow();
    return toChannel(row);
  }

  async find(id: number): Promise<ChannelRecord | undefined> {
    const row = await this.db.selectFrom('channels').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toChannel(row);
  }

  /** Every channel; the routing cache holds them all in memory. */
  async all(): Promise<ChannelRecord[]> {
    const rows = await this.db.selectFrom('channels').selectAll().orderBy('id', 'desc').execute();
    return rows.map(toChannel);
  }

  async list(options: { limit: number; offset: number }): Promise<ChannelRecord[]> {
    const rows = await this.db
      .selectFrom('channels')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(options.limit)
      .offset(options.offset)
      .execute();
    return rows.map(toChannel);
  }

  async update(id: number, changes: ChannelChanges): Promise<ChannelRecord | undefined> {
    const values = toColumns(changes);
    if (Object.keys(values).length === 0) return this.find(id);
    const row = await this.db
      .updateTable('channels')
      .set(values)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toChannel(row);
  }

  /** Changes the status only when it still is `from`, so concurrent changes are never overwritten. */
  /**
   * Changes the status only from `from`. With `event`, the event of the change is stored in the
   * same transaction: the one process whose update changed the row decides it, once.
   */
  async transitionStatus(
    id: number,
    from: ChannelStatus,
    to: ChannelStatus,
    event?: (channel: ChannelRecord) => WebhookEvent,
  ): Promise<ChannelRecord | undefined> {
    return this.db.transaction().execute(async (trx) => {
      const row = await trx
        .updateTable('channels')
        .set({ status: to })
        .where('id', '=', id)
        .where('status', '=', from)
        .returningAll()
        .executeTakeFirst();
      const channel = row && toChannel(row);
      if (channel && event) await new WebhookEventsRepository(trx).add(event(channel));
      return channel;
    });
  }

  async delete(id: number): Promise<ChannelRecord | undefined> {
    const row = await this.db.deleteFrom('channels').where('id', '=', id).returningAll().executeTakeFirst();
    return row && toChannel(row);
  }
}

function toColumns(channel: ChannelChanges) {
  return {
    ...(channel.name !== undefined && { name: channel.name }),
    ...(channel.type !== undefined && { type: channel.type }),
    ...(channel.baseUrl !== undefined && { base_url: channel.baseUrl }),
    ...(channel.keys !== undefined && { keys: JSON.stringify(channel.keys) }),
    ...(channel.models !== undefined && { models: JSON.stringify(channel.models) }),
    ...(channel.modelMapping !== undefined && { model_mapping: JSON.stringify(channel.modelMapping) }),
    ...(channel.groups !== undefined && { groups: JSON.stringify(channel.groups) }),
    ...(channel.priority !== undefined && { priority: channel.priority }),
    ...(channel.weight !== undefined && { weight: channel.weight }),
    ...(channel.endpoints !== undefined && {
      endpoints: channel.endpoints && JSON.stringify(channel.endpoints),
    }),
    ...(channel.status !== undefined && { status: channel.status }),
    ...(channel.config !== undefined && { config: JSON.stringify(channel.config) }),
  } as Omit<ChannelsTable, 'id' | 'created_at' | 'managed'>;
}

function toChannel(row: Selectable<ChannelsTable>): ChannelRecord {
  return {
    id: Number(row.id),
    name: row.name,
    type: row.type,
    baseUrl: row.base_url,
    keys: readJsonColumn<string[]>(row.keys, 'channels.keys'),
    models: readJsonColumn<string[]>(row.models, 'channels.models'),
    modelMapping: readJsonColumn<Record<string, string>>(row.model_mapping, 'channels.model_mapping'),
    groups: readJsonColumn<string[]>(row.groups, 'channels.groups'),
    priority: row.priority,
    weight: row.weight,
    endpoints: readNullableJsonColumn<string[]>(row.endpoints, 'channels.endpoints'),
    status: row.status as ChannelStatus,
    config: readJsonColumn<ChannelConfig>(row.config, 'channels.config'),
    createdAt: Number(row.created_at),
  };
}
