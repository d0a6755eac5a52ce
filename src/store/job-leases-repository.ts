import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Leases of background jobs (`job_leases`): a process that claims a job's lease runs it until the
 * lease expires or it lets go, and no other process sharing the database claims it meanwhile.
 * A process that dies holds nothing once its lease expires.
 */
export class JobLeasesRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Takes the job's lease for `ttlMs`, or renews it when `owner` holds it already; false when
   * another owner holds it unexpired. One statement, so two claimants cannot both win.
   */
  async claim(name: string, owner: string, ttlMs: number): Promise<boolean> {
    const now = this.now();
    const result = await this.db
      .insertInto('job_leases')
      .values({ name, owner, expires_at: now + ttlMs })
      .onConflict((conflict) =>
        conflict
          .column('name')
          .doUpdateSet({ owner, expires_at: now + ttlMs })
          .where((eb) => eb.or([eb('job_leases.expires_at', '<=', now), eb('job_leases.owner', '=', owner)])),
      )
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** Lets go of the lease, when `owner` holds it. */
  async release(name: string, owner: string): Promise<void> {
    await this.db.deleteFrom('job_leases').where('name', '=', name).where('owner', '=', owner).execute();
  }
}
