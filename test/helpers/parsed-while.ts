import { vi } from 'vitest';

/** The text of every `JSON.parse` call while `run` runs. */
export function parsedWhile(run: () => void): string[] {
  const parse = vi.spyOn(JSON, 'parse');
  try {
    run();
    return parse.mock.calls.map(([source]) => source as string);
  } finally {
    parse.mockRestore();
  }
}
