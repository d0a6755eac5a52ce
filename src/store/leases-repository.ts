import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from './database.js';
import type { Database } from './schema.js';

export interface Lease {
  owner: string;
  host: string;
  pid: number;
}

/** An owner that still has holds, with what its lease says of it (none when it has no lease). */
export interface HoldOwner {
  owner: string;
  lease: (Lease & { expired: boolean }) | undefined;
}

/**
 * Leases of process lives over the holds they own. Times are the database's own clock, so
 * instances on machines whose clocks disagree still agree on which lease has expired.
 */
export class LeasesRepository {
  private readonly now: RawBuilder<number>;

  constructor(
    private readonly db: Kysely<Database>,
    dialect: DialectName,
  ) {
    this.now =
      dialect === 'postgres'
        ? sql<number>`(extract(epoch from clock_timestamp()) * 1000)::bigint`
        : sql<number>`cast((julianday('now') - 2440587.5) * 86400000 as integer)`;
  }

  async register(lease: Lease, ttlMs: number): Promise<void> {
    await this.db
      .insertInto('leases')
      .values({ ...lease, expires_at: sql<number>`${this.now} + ${ttlMs}` })
      .execute();
  }

  /** Pushes the expiry forward; false when the lease is gone (another instance took it for dead). */
  async renew(owner: string, ttlMs: number): Promise<boolean> {
    const result = await this.db
      .updateTable('leases')
      .set({ expires_at: sql<number>`${this.now} + ${ttlMs}` })
      .where('owner', '=', owner)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async drop(owner: string): Promise<void> {
    await this.db.deleteFrom('leases').where('owner', '=', owner).execute();
  }

  /** Every other owner that still has holds. */
  async holdOwners(except: string): Promise<HoldOwner[]> {
    const rows = await this.db
      .selectFrom('holds')
      .leftJoin('leases', 'leases.owner', 'holds.owner')
      .select([
        'holds.owner as owner',
        'leases.host as host',
        'leases.pid as pid',
        sql<number>`case when leases.expires_at < ${this.now} then 1 else 0 end`.as('expired'),
      ])
      .where('holds.owner', '<>', except)
      .groupBy(['holds.owner', 'leases.host', 'leases.pid', 'leases.expires_at'])
      .execute();
    return rows.map((row) => ({
      owner: row.owner,
      lease:
        row.host === null || row.pid === null
          ? undefined
          : { owner: row.owner, host: row.host, pid: Number(row.pid), expired: Number(row.expired) === 1 },
    }));
  }

  /** Forgets expired leases that own nothing any more. */
  async pruneExpired(): Promise<void> {
    await this.db
      .deleteFrom('leases')
      .where('expires_at', '<', this.now)
      .where(({ not, exists, selectFrom }) =>
        not(exists(selectFrom('holds').select('holds.id').whereRef('holds.owner', '=', 'leases.owner'))),
      )
      .execute();
  }
}
