import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pickContentEncoding, type ContentEncoding } from './pick-content-encoding.js';

/** Vite writes hashed files flat into assets/: a name with a slash or `..` is never one of them. */
const ASSET_NAME = /^[\w-]+(\.[\w-]+)+$/;

const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.json': 'application/json; charset=utf-8',
};

export interface ConsoleAsset {
  body: Buffer;
  contentType: string;
  encoding: ContentEncoding;
  /** Whether other encodings of the file exist, so caches must key on Accept-Encoding. */
  negotiated: boolean;
}

/**
 * The console's hashed files, read from disk once each. The build writes `.br` and `.gz` beside
 * every compressible file; a client that accepts one of them gets it.
 */
export class ConsoleAssets {
  private readonly cache = new Map<string, Promise<Buffer | undefined>>();

  constructor(private readonly directory: string) {}

  async find(name: string, acceptEncoding: string | undefined): Promise<ConsoleAsset | undefined> {
    if (!ASSET_NAME.test(name)) return undefined;
    const contentType = CONTENT_TYPES[path.extname(name)];
    if (!contentType) return undefined;
    const identity = await this.read(name);
    if (!identity) return undefined;
    const available = { br: await this.read(`${name}.br`), gzip: await this.read(`${name}.gz`) };
    const negotiated = available.br !== undefined || available.gzip !== undefined;
    const encoding = pickContentEncoding(acceptEncoding, {
      br: available.br !== undefined,
      gzip: available.gzip !== undefined,
    });
    const body = encoding === 'identity' ? identity : (available[encoding] ?? identity);
    return { body, contentType, encoding, negotiated };
  }

  private read(name: string): Promise<Buffer | undefined> {
    let file = this.cache.get(name);
    if (!file) {
      file = readFile(path.join(this.directory, 'assets', name)).catch(() => undefined);
      // A miss is not remembered: a build may add the file later.
      void file.then((body) => body ?? this.cache.delete(name));
      this.cache.set(name, file);
    }
    return file;
  }
}
