import { lookup } from 'node:dns';
import { isIP } from 'node:net';
import { Agent, request } from 'undici';
import { guessMediaType } from './guess-media-type.js';
import { isPublicAddress } from './is-public-address.js';

export interface FileFetchOptions {
  /** `image_fetch_allow_private`: also fetch from loopback and private addresses. */
  allowPrivate: boolean;
  /** Largest size of one file. */
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  /**
   * The request's lifetime: aborting it (the client left) cancels the download. A cancelled
   * download rejects with the signal's reason, not with a `FileFetchError`.
   */
  signal?: AbortSignal;
}

export interface FileDownloadOptions extends FileFetchOptions {
  /** Told the size of each chunk as it arrives; throwing a `FileFetchError` stops the download. */
  onChunk?(bytes: number): void;
}

export interface FileData {
  mediaType: string;
  /** Base64 of the bytes. */
  data: string;
}

/** Thrown with a short reason; the relay reports it as `get file data failed: <reason>`. */
export class FileFetchError extends Error {}

const publicOnly = new Agent({
  connect: {
    // Checked on the addresses actually connected to, so DNS answers cannot smuggle a private target.
    lookup(hostname, options, callback) {
      lookup(hostname, { ...options, all: true }, (error, addresses) => {
        if (error) return callback(error, '', 0);
        const list = addresses as { address: string; family: number }[];
        const refused = list.find((entry) => !isPublicAddress(entry.address));
        if (refused || list.length === 0) {
          return callback(new FileFetchError(`${hostname} resolves to a non-public address`), '', 0);
        }
        if ((options as { all?: boolean }).all)
          return (callback as (e: null, a: typeof list) => void)(null, list);
        callback(null, list[0]!.address, list[0]!.family);
      });
    },
  },
});
const anyAddress = new Agent();

/**
 * Downloads a file linked from a request (client-api 4.8) within size and time bounds. Links to
 * loopback, private and link-local addresses are refused unless allowed, also after redirects.
 */
export async function fetchFileData(link: string, options: FileDownloadOptions): Promise<FileData> {
  options.signal?.throwIfAborted();
  let url = parseLink(link);
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const failure = (error: unknown) => asFetchError(error, { deadline, cancellation: options.signal });
  for (let redirects = 0; ; redirects += 1) {
    if (!options.allowPrivate) checkLiteralHost(url);
    let response;
    try {
      response = await request(url, {
        method: 'GET',
        dispatcher: options.allowPrivate ? anyAddress : publicOnly,
        signal,
        headersTimeout: options.timeoutMs,
        bodyTimeout: options.timeoutMs,
      });
    } catch (error) {
      throw failure(error);
    }
    const location = header(response.headers.location);
    if (response.statusCode >= 300 && response.statusCode < 400 && location) {
      await discard(response.body);
      if (redirects >= (options.maxRedirects ?? 3)) throw new FileFetchError('too many redirects');
      url = parseLink(new URL(location, url).toString());
      continue;
    }
    if (response.statusCode !== 200) {
      await discard(response.body);
      throw new FileFetchError(`HTTP ${response.statusCode}`);
    }
    const declared = Number(header(response.headers['content-length']));
    if (Number.isFinite(declared) && declared > options.maxBytes) {
      await discard(response.body);
      throw new FileFetchError(`file larger than ${options.maxBytes} bytes`);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    try {
      for await (const chunk of response.body as AsyncIterable<Buffer>) {
        size += chunk.length;
        if (size > options.maxBytes) throw new FileFetchError(`file larger than ${options.maxBytes} bytes`);
        options.onChunk?.(chunk.length);
        chunks.push(chunk);
      }
    } catch (error) {
      response.body.destroy();
      throw failure(error);
    }
    const mediaType =
      header(response.headers['content-type'])?.split(';')[0]?.trim() ||
      (guessMediaType(url.pathname) ?? 'application/octet-stream');
    return { mediaType, data: Buffer.concat(chunks, size).toString('base64') };
  }
}

function parseLink(link: string): URL {
  let url: URL;
  try {
    url = new URL(link);
  } catch {
    throw new FileFetchError('invalid URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new FileFetchError(`unsupported scheme ${url.protocol}`);
  return url;
}

function checkLiteralHost(url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isIP(host) && !isPublicAddress(host)) throw new FileFetchError(`${host} is not a public address`);
}

/** What a failed download rejects with: a `FileFetchError`, or the cancellation's own reason. */
function asFetchError(
  error: unknown,
  signals: { deadline: AbortSignal; cancellation: AbortSignal | undefined },
): unknown {
  if (signals.cancellation?.aborted) return signals.cancellation.reason;
  if (error instanceof FileFetchError) return error;
  if (signals.deadline.aborted) return new FileFetchError('timed out');
  const cause = (error as { cause?: unknown }).cause;
  if (cause instanceof FileFetchError) return cause;
  return new FileFetchError(error instanceof Error ? error.message : String(error));
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Drops an unwanted body, keeping the connection when it is short; a failure here changes nothing. */
async function discard(body: { dump(): Promise<void> }): Promise<void> {
  await body.dump().catch(() => undefined);
}
