import { fetchFileData, FileFetchError, type FileData, type FileFetchOptions } from './fetch-file-data.js';

/** What one request may make the gateway download, besides each file's own size cap. */
export interface LinkedFileLimits {
  /** Linked files in the request, each place a link appears counted. */
  maxFiles: number;
  /** Downloads in flight at once. */
  concurrency: number;
  /**
   * Bytes across the request's files, counted once per place the file is inlined: each place
   * becomes a copy in the body sent upstream.
   */
  maxTotalBytes: number;
}

export const defaultLinkedFileLimits: LinkedFileLimits = {
  maxFiles: 100,
  concurrency: 4,
  maxTotalBytes: 64 * 1024 * 1024,
};

export interface LinkedFilesOptions extends FileFetchOptions {
  limits?: LinkedFileLimits;
}

/**
 * Downloads the files one request links to (client-api 4.8), each distinct link once, within the
 * request's limits: too many links fail before any download, and the first failure cancels the
 * downloads still in flight. A failure is a `FileFetchError` naming the link. When `signal` aborts,
 * every download is cancelled and the call rejects with the signal's reason: the request is over,
 * so nothing is reported as a file error.
 */
export async function fetchLinkedFiles(
  links: readonly string[],
  options: LinkedFilesOptions,
): Promise<Map<string, FileData>> {
  const { limits = defaultLinkedFileLimits, ...fetchOptions } = options;
  const cancellation = options.signal;
  cancellation?.throwIfAborted();
  if (links.length > limits.maxFiles)
    throw new FileFetchError(`too many linked files (limit ${limits.maxFiles})`);

  const places = new Map<string, number>();
  for (const link of links) places.set(link, (places.get(link) ?? 0) + 1);
  const queue = [...places.keys()];
  const files = new Map<string, FileData>();
  // Aborted by the request's end or by the first failure; every download listens to it.
  const stop = new AbortController();
  const onCancel = () => stop.abort(cancellation?.reason);
  cancellation?.addEventListener('abort', onCancel, { once: true });
  let failure: FileFetchError | undefined;
  let totalBytes = 0;

  const work = async () => {
    for (let link = queue.shift(); link !== undefined && !stop.signal.aborted; link = queue.shift()) {
      const copies = places.get(link) ?? 1;
      try {
        const file = await fetchFileData(link, {
          ...fetchOptions,
          signal: stop.signal,
          onChunk(bytes) {
            totalBytes += bytes * copies;
            if (totalBytes > limits.maxTotalBytes)
              throw new FileFetchError(`linked files larger than ${limits.maxTotalBytes} bytes in total`);
          },
        });
        files.set(link, file);
      } catch (error) {
        if (!stop.signal.aborted) {
          const reason = error instanceof FileFetchError ? error.message : String(error);
          failure = new FileFetchError(`${link}: ${reason}`);
          stop.abort(failure);
        }
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(limits.concurrency, queue.length) }, work));
  } finally {
    cancellation?.removeEventListener('abort', onCancel);
  }
  if (cancellation?.aborted) throw cancellation.reason;
  if (failure) throw failure;
  return files;
}
