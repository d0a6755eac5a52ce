/** `data:<media type>;base64,<data>` links, as Responses carries inline images and files. */
const DATA_URL = /^data:([^;,]*)((?:;[^;,]*)*);base64,(.*)$/s;

export function parseDataUrl(url: string): { mediaType: string; data: string } | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  return { mediaType: match[1] || 'application/octet-stream', data: match[3] ?? '' };
}

export function formatDataUrl(options: { mediaType: string; data: string }): string {
  return `data:${options.mediaType};base64,${options.data}`;
}

const BY_EXTENSION: Record<string, string> = {
  pdf: 'application/pdf',
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  html: 'text/html',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
};

/** A file's media type guessed from its name or link, for files sent without one. */
export function guessMediaType(name: string | undefined): string | undefined {
  if (!name) return undefined;
  const path = name.split(/[?#]/, 1)[0] ?? '';
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension ? BY_EXTENSION[extension] : undefined;
}
