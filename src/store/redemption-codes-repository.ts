import type { Kysely, Selectable, Transaction } from 'kysely';
import type { Database, RedemptionCodesTable } from './schema.js';

/** A code that credits its amount to whoever redeems it first (admin-api section 15). */
export interface RedemptionCodeRecord {
  id: number;
  /** The masked code; the code itself is never stored. */
  hint: string;
  name: string;
  /** nano-USD */
  amount: number;
  expiresAt: number | null;
  disabledAt: number | null;
  createdAt: number;
  usedAt: number | null;
  /** null while unused, and after its user was deleted. */
  usedBy: number | null;
}

export interface NewRedemptionCode {
  hash: string;
  hint: string;
  name: string;
  amount: number;
  expiresAt: number | null;
}

export type RedemptionCodeStatus = 'unused' | 'used' | 'expired' | 'disabled';

/** Used wins over disabled, which wins over expired: each explains more of why it cannot be redeemed. */
export function redemptionCodeStatus(code: RedemptionCodeRecord, now: number): RedemptionCodeStatus {
  if (code.usedAt !== null) return 'used';
  if (code.disabledAt !== null) return 'disabled';
  if (code.expiresAt !== null && code.expiresAt <= now) return 'expired';
  return 'unused';
}

export class RedemptionCodesRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Stores the codes; the records come back in the order given. */
  async createMany(codes: readonly NewRedemptionCode[], now: number): Promise<RedemptionCodeRecord[]> {
    const rows = await this.db
      .insertInto('redemption_codes')
      .values(
        codes.map((code) => ({
          code_hash: code.hash,
          code_hint: code.hint,
          name: code.name,
          amount: code.amount,
          expires_at: code.expiresAt,
          created_at: now,
        })),
      )
      .returningAll()
      .execute();
    // A multi-row insert's RETURNING order is not promised; the hashes say which row is which.
    const byHash = new Map(rows.map((row) => [row.code_hash, toRedemptionCode(row)]));
    return codes.map((code) => {
      const stored = byHash.get(code.hash);
      if (!stored) throw new Error('a code inserted was not returned');
      return stored;
    });
  }

  /** Newest first. */
  async list(page: { limit: number; offset: number }): Promise<RedemptionCodeRecord[]> {
    const rows = await this.db
      .selectFrom('redemption_codes')
      .selectAll()
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute();
    return rows.map(toRedemptionCode);
  }

  async find(id: number): Promise<RedemptionCodeRecord | undefined> {
    const row = await this.db
      .selectFrom('redemption_codes')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    return row && toRedemptionCode(row);
  }

  /** Disables the code (null: enables it again); undefined when there is no such code. */
  async setDisabledAt(id: number, disabledAt: number | null): Promise<RedemptionCodeRecord | undefined> {
    const row = await this.db
      .updateTable('redemption_codes')
      .set({ disabled_at: disabledAt })
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toRedemptionCode(row);
  }

  async delete(id: number): Promise<RedemptionCodeRecord | undefined> {
    const row = await this.db
      .deleteFrom('redemption_codes')
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    return row && toRedemptionCode(row);
  }

  /**
   * Marks the code used by the user if it is unused, enabled and unexpired, in one statement: of
   * concurrent redemptions of one code exactly one gets its id and amount. The caller credits the
   * amount in the same transaction. undefined for a wrong, used, disabled or expired code.
   */
  async claim(
    trx: Transaction<Database>,
    claim: { hash: string; userId: number; now: number },
  ): Promise<{ id: number; amount: number } | undefined> {
    const row = await trx
      .updateTable('redemption_codes')
      .set({ used_at: claim.now, used_by: claim.userId })
      .where('code_hash', '=', claim.hash)
      .where('used_at', 'is', null)
      .where('disabled_at', 'is', null)
      .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', claim.now)]))
      .returning(['id', 'amount'])
      .executeTakeFirst();
    return row && { id: Number(row.id), amount: Number(row.amount) };
  }
}

function toRedemptionCode(row: Selectable<RedemptionCodesTable>): RedemptionCodeRecord {
  const optional = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: Number(row.id),
    hint: row.code_hint,
    name: row.name,
    amount: Number(row.amount),
    expiresAt: optional(row.expires_at),
    disabledAt: optional(row.disabled_at),
    createdAt: Number(row.created_at),
    usedAt: optional(row.used_at),
    usedBy: optional(row.used_by),
  };
}
