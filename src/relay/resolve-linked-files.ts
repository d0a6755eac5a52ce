import type { Part } from '../ir/content.js';
import type { CanonicalRequest } from '../ir/request.js';
import type { FileData } from '../files/fetch-file-data.js';
import { fetchLinkedFiles, type LinkedFilesOptions } from '../files/fetch-linked-files.js';
import { GatewayError } from '../errors/gateway-error.js';

export interface ResolveLinkedFilesOptions extends Omit<LinkedFilesOptions, 'signal'> {
  /**
   * Cancels the downloads (a request's `Cancellation`, or an AbortController). Its signal is taken
   * only when there is something to download: making one costs microseconds on every request.
   */
  cancellation?: { readonly signal: AbortSignal };
}

/**
 * Replaces linked files with their bytes, for upstreams that cannot fetch links themselves
 * (client-api 4.8). A link that cannot be downloaded, or more links or bytes than one request may
 * carry, fails the request with `get file data failed`. When the cancellation aborts (the client
 * left), the downloads are cancelled and its reason is thrown as it is, not as a file error.
 */
export async function resolveLinkedFiles(
  request: CanonicalRequest,
  options: ResolveLinkedFilesOptions,
): Promise<CanonicalRequest> {
  const links: string[] = [];
  const collect = (part: Part) => {
    if (part.type === 'tool-result') part.content.forEach(collect);
    else if (part.type === 'file' && part.source.kind === 'url') links.push(part.source.url);
  };
  request.system.forEach(collect);
  for (const message of request.messages) message.parts.forEach(collect);
  if (links.length === 0) return request;

  const { cancellation, ...fetchOptions } = options;
  const signal = cancellation?.signal;
  let files: Map<string, FileData>;
  try {
    files = await fetchLinkedFiles(links, { ...fetchOptions, signal });
  } catch (error) {
    if (signal?.aborted) throw error;
    throw new GatewayError('file_fetch_failed', {
      detail: error instanceof Error ? error.message : String(error),
    });
  }

  const inline = <T extends Part>(part: T): T => {
    if (part.type === 'tool-result') return { ...part, content: part.content.map(inline) };
    if (part.type !== 'file' || part.source.kind !== 'url') return part;
    // Every link was collected above, so every one has its file.
    const file = files.get(part.source.url)!;
    const mediaType =
      part.mediaType.endsWith('/*') || part.mediaType === '' ? file.mediaType : part.mediaType;
    return { ...part, mediaType, source: { kind: 'base64', data: file.data } };
  };
  return {
    ...request,
    system: request.system.map(inline),
    messages: request.messages.map((message) => ({ ...message, parts: message.parts.map(inline) })),
  };
}
