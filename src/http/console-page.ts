import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { CONSOLE_DIRECTORY } from './console/console-directory.js';

/** Served while console/dist is missing, as in tests that never built the console. */
const PLACEHOLDER_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Model Gateway</title></head>' +
  '<body><h1>Model Gateway</h1><p>The web console is not built: run <code>npm run build</code>.</p></body></html>';

/** The web console's entry page, served for every path outside the APIs. */
export function loadConsolePage(directory: string = CONSOLE_DIRECTORY): string {
  const built = path.join(directory, 'index.html');
  if (existsSync(built)) return readFileSync(built, 'utf8');
  return PLACEHOLDER_PAGE;
}
