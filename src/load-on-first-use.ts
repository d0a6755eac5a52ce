import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/**
 * A package loaded the first time it is needed, so a gateway that never needs it (no PostgreSQL,
 * no Redis, no Bedrock channel, nothing to count) neither loads it at start nor holds its code and
 * data in the heap, where every full collection would mark them again.
 */
export function loadOnFirstUse<Module>(specifier: string): () => Module {
  let loaded: Module | undefined;
  return () => (loaded ??= require(specifier) as Module);
}

/**
 * The same for a package published only as an ES module: `require` loads those from Node 20.19
 * on, and `engines` still allows 20.18.
 */
export function importOnFirstUse<Module>(specifier: string): () => Promise<Module> {
  let loading: Promise<Module> | undefined;
  return () => (loading ??= import(specifier) as Promise<Module>);
}
