import type { Part } from '../ir/content.js';
import type { CanonicalRequest } from '../ir/request.js';
import { fetchFileData, FileFetchError, type FileFetchOptions } from '../files/fetch-file-data.js';
import { GatewayError } from '../errors/gateway-error.js';

/**
 * Replaces linked files with their bytes, for upstreams that cannot fetch links themselves
 * (client-api 4.8). A link that cannot be downloaded fails the request with `get file data failed`.
 */
export async function resolveLinkedFiles(
  request: CanonicalRequest,
  options: FileFetchOptions,
): Promise<CanonicalRequest> {
  const downloads = new Map<string, Promise<{ mediaType: string; data: string }>>();
  const resolvePart = async (part: Part): Promise<Part> => {
    if (part.type === 'tool-result')
      return { ...part, content: (await Promise.all(part.content.map(resolvePart))) as typeof part.content };
    if (part.type !== 'file' || part.source.kind !== 'url') return part;
    const url = part.source.url;
    let download = downloads.get(url);
    if (!download) downloads.set(url, (download = fetchFileData(url, options)));
    try {
      const file = await download;
      const mediaType =
        part.mediaType.endsWith('/*') || part.mediaType === '' ? file.mediaType : part.mediaType;
      return { ...part, mediaType, source: { kind: 'base64', data: file.data } };
    } catch (error) {
      const detail = error instanceof FileFetchError ? error.message : String(error);
      throw new GatewayError('file_fetch_failed', { detail: `${url}: ${detail}` });
    }
  };
  const hasLinks = [...request.system, ...request.messages.flatMap((message) => message.parts)].some(
    (part) =>
      (part.type === 'file' && part.source.kind === 'url') ||
      (part.type === 'tool-result' &&
        part.content.some((inner) => inner.type === 'file' && inner.source.kind === 'url')),
  );
  if (!hasLinks) return request;
  return {
    ...request,
    system: await Promise.all(request.system.map(resolvePart)),
    messages: await Promise.all(
      request.messages.map(async (message) => ({
        ...message,
        parts: await Promise.all(message.parts.map(resolvePart)),
      })),
    ),
  };
}
