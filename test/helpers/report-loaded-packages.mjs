// Preload (`node --import`) for a gateway under test: every package file it loads, by `import` or
// `require`, is written to stderr as `loaded <path>`.
import Module, { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (resolved.url.includes('/node_modules/')) process.stderr.write('loaded ' + resolved.url + '\\n');
  return resolved;
}`),
);

const load = Module._load;
Module._load = function (request, parent, isMain) {
  const loaded = load.call(this, request, parent, isMain);
  const file = Module._resolveFilename(request, parent, isMain);
  if (file.includes('/node_modules/')) process.stderr.write(`loaded ${file}\n`);
  return loaded;
};
