/** JSON columns are written by the gateway itself, so a parse failure means a corrupted row. */
export function readJsonColumn<T>(text: string, column: string): T {
  try {
    return JSON.parse(text) as T;
  } catch (error) {
    throw new Error(`stored column ${column} is not valid JSON: ${(error as Error).message}`);
  }
}

export function readNullableJsonColumn<T>(text: string | null, column: string): T | null {
  return text === null ? null : readJsonColumn<T>(text, column);
}

export function unixNow(): number {
  return Math.floor(Date.now() / 1000);
}
