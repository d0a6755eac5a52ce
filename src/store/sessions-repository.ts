import type { Kysely, Selectable } from 'kysely';
import type { Database, SessionsTable } from './schema.js';

/** A web console session; the token itself is never stored, only its hash (`id`). */
export interface SessionRecord {
  id: string;
  /** null: the root admin. */
  userId: number | null;
  rootToken: string | null;
  csrfHash: string;
  createdAt: number;
  /** Absolute end, Unix seconds. */
  expiresAt: number;
  lastSeenAt: number;
}

/** The `sessions` table (admin-api section 8); the rules of how long one lives are in `ConsoleSessions`. */
export class SessionsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async create(session: SessionRecord): Promise<void> {
    await this.db
      .insertInto('sessions')
      .values({
        id: session.id,
        user_id: session.userId,
        root_token: session.rootToken,
        csrf_hash: session.csrfHash,
        created_at: session.createdAt,
        expires_at: session.expiresAt,
        last_seen_at: session.lastSeenAt,
      })
      .execute();
  }

  async find(id: string): Promise<SessionRecord | undefined> {
    const row = await this.db.selectFrom('sessions').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toSession(row);
  }

  async touch(id: string, lastSeenAt: number): Promise<void> {
    await this.db.updateTable('sessions').set({ last_seen_at: lastSeenAt }).where('id', '=', id).execute();
  }

  async delete(id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('sessions').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** Ends every session of a user, except `keep` (the session that asked, when it may go on). */
  async deleteForUser(userId: number, keep?: string): Promise<number> {
    let query = this.db.deleteFrom('sessions').where('user_id', '=', userId);
    if (keep !== undefined) query = query.where('id', '!=', keep);
    const result = await query.executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Removes sessions past their absolute end or idle since `idleSince`. */
  async deleteExpired(options: { now: number; idleSince: number }): Promise<number> {
    const result = await this.db
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', options.now), eb('last_seen_at', '<', options.idleSince)]))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

function toSession(row: Selectable<SessionsTable>): SessionRecord {
  return {
    id: row.id,
    userId: row.user_id === null ? null : Number(row.user_id),
    rootToken: row.root_token,
    csrfHash: row.csrf_hash,
    createdAt: Number(row.created_at),
    expiresAt: Number(row.expires_at),
    lastSeenAt: Number(row.last_seen_at),
  };
}
