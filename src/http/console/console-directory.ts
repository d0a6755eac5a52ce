import { fileURLToPath } from 'node:url';

/** Where `npm run build` puts the web console (console/dist), from both `src/http/console` and `dist/http/console`. */
export const CONSOLE_DIRECTORY = fileURLToPath(new URL('../../../console/dist/', import.meta.url));
