import { encodeCsvRow } from '../format/encode-csv-row';
import type { CreatedRedemptionCode } from './redemption-code';

const COLUMNS = ['id', 'code', 'amount', 'expires_at', 'name'] as const;

/**
 * A batch of new codes as CSV, one row per code with the members the gateway sent: `amount` in
 * USD, `expires_at` in Unix seconds (empty: never), `name` (empty: none).
 */
export function redemptionCodesCsv(codes: readonly CreatedRedemptionCode[]): string {
  return [
    encodeCsvRow(COLUMNS),
    ...codes.map((code) =>
      encodeCsvRow([code.id, code.code, plainUsd(code.amount), code.expires_at, code.name]),
    ),
  ].join('');
}

/** USD without an exponent (`1e-9` reads as text in some spreadsheets): up to the API's 9 decimals. */
function plainUsd(amount: number): string {
  return Number.isInteger(amount) ? String(amount) : amount.toFixed(9).replace(/0+$/, '');
}

/** The download's name: the batch's name where it has one, and the first code's id, so batches do not overwrite each other. */
export function redemptionCodesFileName(codes: readonly CreatedRedemptionCode[]): string {
  const first = codes[0];
  const name = first?.name?.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') ?? '';
  return `redemption-codes${name === '' ? '' : `-${name}`}${first ? `-${first.id}` : ''}.csv`;
}
