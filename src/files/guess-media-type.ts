const byExtension: Record<string, string> = {
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

/** A file's media type guessed from its name or link, for files that come without one. */
export function guessMediaType(nameOrLink: string | undefined): string | undefined {
  if (!nameOrLink) return undefined;
  const path = nameOrLink.split(/[?#]/, 1)[0] ?? '';
  const extension = /\.([A-Za-z0-9]+)$/.exec(path)?.[1]?.toLowerCase();
  return extension ? byExtension[extension] : undefined;
}
