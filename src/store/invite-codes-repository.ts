import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, InviteCodesTable } from './schema.js';

/** A code that lets one person register while `registration` is `invite` (admin-api section 15). */
export interface InviteCodeRecord {
  id: number;
  /** The masked code; the code itself is never stored. */
  hint: string;
  createdAt: number;
  usedAt: number | null;
  /** null while unused, and after its user was deleted. */
  usedBy: number | null;
}

export interface NewInviteCode {
  hash: string;
  hint: string;
}

export class InviteCodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the codes; the records come back in the order given. */
  async createMany(codes: readonly NewInviteCode[], now: number): Promise<InviteCodeRecord[]> {
    const rows = await this.db
      .insertInto('invite_codes')
      .values(codes.map((code) => ({ code_hash: code.hash, code_hint: code.hint, created_at: now })))
      .returningAll()
      .execute();
    // A multi-row insert's RETURNING order is not promised; the hashes say which row is which.
    const byHash = new Map(rows.map((row) => [row.code_hash, toInviteCode(row)]));
    return codes.map((code) => {
      const stored = byHash.get(code.hash);
      if (!stored) throw new Error('a code inserted was not returned');
      return stored;
    });
  }

  /** Newest first. */
  async list(page: { limit: number; offset: number }): Promise<InviteCodeRecord[]> {
    const rows = await this.db
      .selectFrom('invite_codes')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(toInviteCode);
  }

  async delete(id: number): Promise<InviteCodeRecord | undefined> {
    const row = await this.db
      .deleteFrom('invite_codes')
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toInviteCode(row);
  }

  /**
   * Marks the unused code of that hash used, in one statement, so that of concurrent sign-ups with
   * one code only one gets its id; undefined for a wrong or used code.
   */
  async claim(trx: Transaction<Database>, hash: string, now: number): Promise<number | undefined> {
    const row = await trx
      .updateTable('invite_codes')
      .set({ used_at: now })
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return row && Number(row.id);
  }

  /** Names the user a claimed code signed up, once that user exists in the same transaction. */
  async recordUser(trx: Transaction<Database>, id: number, userId: number): Promise<void> {
    await trx.updateTable('invite_codes').set({ used_by: userId }).where('id', '=', id).execute();
  }
}

function toInviteCode(row: Selectable<InviteCodesTable>): InviteCodeRecord {
  return {
    id: Number(row.id),
    hint: row.code_hint,
    createdAt: Number(row.created_at),
    usedAt: row.used_at === null ? null : Number(row.used_at),
    usedBy: row.used_by === null ? null : Number(row.used_by),
  };
}
