import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const BUILT_CONSOLE = fileURLToPath(new URL('../../console/index.html', import.meta.url));

/** The web console's entry page, served for every path outside the APIs. */
export function loadConsolePage(): string {
  if (existsSync(BUILT_CONSOLE)) return readFileSync(BUILT_CONSOLE, 'utf8');
  return '<!doctype html><html><head><meta charset="utf-8"><title>Model Gateway</title></head><body><h1>Model Gateway</h1></body></html>';
}
