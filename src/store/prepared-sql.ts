import { CompiledQuery } from 'kysely';
import type { DialectName } from './database.js';

/**
 * A fixed statement for the hot path, written once with `?` placeholders: each call binds new
 * values without building or compiling a query (`$1`, `$2`, ... on PostgreSQL).
 */
export function preparedSql(dialect: DialectName, text: string): (...parameters: unknown[]) => CompiledQuery {
  let position = 0;
  const sqlText = dialect === 'postgres' ? text.replace(/\?/g, () => `$${++position}`) : text;
  return (...parameters) => CompiledQuery.raw(sqlText, parameters);
}
