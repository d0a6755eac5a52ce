import type { Kysely, Selectable } from 'kysely';
import { readNullableJsonColumn } from './json-column.js';
import type { Database, GuardrailsTable } from './schema.js';

export const GUARDRAIL_KINDS = ['regex', 'webhook'] as const;
export const GUARDRAIL_ACTIONS = ['block', 'log'] as const;
export const GUARDRAIL_FAILURES = ['closed', 'open'] as const;

/** A check of a request's text before anything is charged (admin-api section 12). */
export interface GuardrailRecord {
  id: number;
  name: string;
  kind: (typeof GUARDRAIL_KINDS)[number];
  /** The regular expression of a `regex` guardrail. */
  pattern: string | null;
  /** Where a `webhook` guardrail posts the texts. */
  url: string | null;
  action: (typeof GUARDRAIL_ACTIONS)[number];
  /** What a webhook's error or timeout means: `closed` blocks, `open` lets through. */
  fail: (typeof GUARDRAIL_FAILURES)[number];
  timeoutMs: number;
  /** The groups whose requests it checks; null: every group. */
  groups: string[] | null;
  createdAt: number;
}

export type NewGuardrail = Omit<GuardrailRecord, 'id' | 'createdAt'>;

export class GuardrailsRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async all(): Promise<GuardrailRecord[]> {
    const rows = await this.db.selectFrom('guardrails').selectAll().orderBy('id').execute();
    return rows.map(toGuardrail);
  }

  async find(id: number): Promise<GuardrailRecord | undefined> {
    const row = await this.db.selectFrom('guardrails').selectAll().where('id', '=', id).executeTakeFirst();
    return row && toGuardrail(row);
  }

  /** Stores a new guardrail; undefined when its name is taken. */
  async create(guardrail: NewGuardrail): Promise<GuardrailRecord | undefined> {
    const row = await this.db
      .insertInto('guardrails')
      .values({ ...columnsOf(guardrail), created_at: Math.floor(Date.now() / 1000) })
      .onConflict((conflict) => conflict.column('name').doNothing())
      .returningAll()
      .executeTakeFirst();
    return row && toGuardrail(row);
  }

  /** Replaces every member but the id; undefined when it is gone, or its new name is taken. */
  async replace(guardrail: GuardrailRecord): Promise<GuardrailRecord | undefined> {
    const taken = await this.db
      .selectFrom('guardrails')
      .select('id')
      .where('name', '=', guardrail.name)
      .where('id', '<>', guardrail.id)
      .executeTakeFirst();
    if (taken) return undefined;
    const row = await this.db
      .updateTable('guardrails')
      .set(columnsOf(guardrail))
      .where('id', '=', guardrail.id)
      .returningAll()
      .executeTakeFirst();
    return row && toGuardrail(row);
  }

  async delete(id: number): Promise<boolean> {
    const result = await this.db.deleteFrom('guardrails').where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}

function columnsOf(guardrail: NewGuardrail) {
  return {
    name: guardrail.name,
    kind: guardrail.kind,
    pattern: guardrail.pattern,
    url: guardrail.url,
    action: guardrail.action,
    fail: guardrail.fail,
    timeout_ms: guardrail.timeoutMs,
    groups: guardrail.groups === null ? null : JSON.stringify(guardrail.groups),
  };
}

function toGuardrail(row: Selectable<GuardrailsTable>): GuardrailRecord {
  return {
    id: Number(row.id),
    name: row.name,
    kind: row.kind as GuardrailRecord['kind'],
    pattern: row.pattern,
    url: row.url,
    action: row.action as GuardrailRecord['action'],
    fail: row.fail as GuardrailRecord['fail'],
    timeoutMs: Number(row.timeout_ms),
    groups: readNullableJsonColumn<string[]>(row.groups, 'guardrails.groups'),
    createdAt: Number(row.created_at),
  };
}
