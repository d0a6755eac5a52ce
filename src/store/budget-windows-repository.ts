import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/** A window's stored counts (nano-USD, tokens, requests): settled, and reserved by requests in flight. */
export interface StoredWindow {
  /** Unix seconds. */
  start: number;
  usedUsd: number;
  usedTokens: number;
  usedRequests: number;
  heldUsd: number;
  heldTokens: number;
  heldRequests: number;
}

/** Reads of `budget_windows` for the budgets endpoints; the money moves write them. */
export class BudgetWindowsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async find(keys: readonly string[]): Promise<Map<string, StoredWindow>> {
    if (keys.length === 0) return new Map();
    const rows = await this.db
      .selectFrom('budget_windows')
      .selectAll()
      .where('window_key', 'in', [...keys])
      .execute();
    return new Map(
      rows.map((row) => [
        row.window_key,
        {
          start: Number(row.window_start),
          usedUsd: Number(row.used_usd),
          usedTokens: Number(row.used_tokens),
          usedRequests: Number(row.used_requests),
          heldUsd: Number(row.held_usd),
          heldTokens: Number(row.held_tokens),
          heldRequests: Number(row.held_requests),
        },
      ]),
    );
  }
}
