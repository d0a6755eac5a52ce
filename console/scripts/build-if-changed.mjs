// Builds the console into console/dist unless the sources are unchanged since the last build.
// The stamp is a hash of every input of the build (sources, configuration, installed versions),
// so a checkout that only touched file times does not rebuild, and any real change does.
// Usage: node console/scripts/build-if-changed.mjs [--force]
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const consoleDirectory = path.resolve(import.meta.dirname, '..');
const repositoryRoot = path.resolve(consoleDirectory, '..');
const distDirectory = path.join(consoleDirectory, 'dist');
const stampFile = path.join(distDirectory, '.build-stamp');

/** Files whose content decides the build's output; tests do not. */
const INPUT_FILES = ['index.html', 'package.json', 'tsconfig.json', 'vite.config.ts'];
const INPUT_DIRECTORIES = ['src', 'public'];
const LOCKFILE = path.join(repositoryRoot, 'package-lock.json');
const COMPRESSIBLE = /\.(js|css|svg|json)$/;

function isTestFile(relative) {
  return /\.test\.tsx?$/.test(relative) || relative.startsWith(`src${path.sep}test${path.sep}`);
}

function listFiles(directory) {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

function hashInputs() {
  const hash = createHash('sha256');
  const files = [
    ...INPUT_FILES.map((name) => path.join(consoleDirectory, name)),
    ...INPUT_DIRECTORIES.flatMap((name) => listFiles(path.join(consoleDirectory, name))),
  ]
    .map((file) => path.relative(consoleDirectory, file))
    .filter((relative) => !isTestFile(relative))
    .sort();
  for (const relative of files) {
    hash.update(`${relative}\0`);
    hash.update(readFileSync(path.join(consoleDirectory, relative)));
    hash.update('\0');
  }
  if (existsSync(LOCKFILE)) hash.update(readFileSync(LOCKFILE));
  return hash.digest('hex');
}

function readStamp() {
  if (!existsSync(path.join(distDirectory, 'index.html')) || !existsSync(stampFile)) return undefined;
  return readFileSync(stampFile, 'utf8').trim();
}

/** `.br` and `.gz` beside each text asset, for the gateway to send to clients that accept them. */
function compressAssets(directory) {
  for (const file of listFiles(path.join(directory, 'assets'))) {
    if (!COMPRESSIBLE.test(file)) continue;
    const content = readFileSync(file);
    writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
    writeFileSync(
      `${file}.br`,
      brotliCompressSync(content, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: 10,
          [constants.BROTLI_PARAM_SIZE_HINT]: content.length,
        },
      }),
    );
  }
}

async function buildInto(directory) {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    return false;
  }
  await vite.build({
    root: consoleDirectory,
    logLevel: 'warn',
    build: { outDir: directory, emptyOutDir: true },
  });
  compressAssets(directory);
  return true;
}

/** Builds beside dist and swaps the directories, so a running gateway never sees half a build. */
async function main() {
  const force = process.argv.includes('--force');
  const inputs = hashInputs();
  if (!force && readStamp() === inputs) return;
  const staging = path.join(consoleDirectory, `.dist-${process.pid}`);
  const retired = path.join(consoleDirectory, `.dist-old-${process.pid}`);
  process.stderr.write('Building the web console (console/dist)...\n');
  try {
    if (!(await buildInto(staging))) {
      process.stderr.write(
        'vite is not installed (npm ci installs it): the gateway serves a placeholder page instead of the console.\n',
      );
      return;
    }
    writeFileSync(path.join(staging, '.build-stamp'), `${inputs}\n`);
    if (existsSync(distDirectory)) renameSync(distDirectory, retired);
    renameSync(staging, distDirectory);
  } finally {
    rmSync(staging, { recursive: true, force: true });
    rmSync(retired, { recursive: true, force: true });
  }
}

await main();
