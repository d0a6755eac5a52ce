/** `data:` URLs (RFC 2397), the way the OpenAI protocols inline images and files. */

export interface DataUrl {
  mediaType: string;
  /** Base64 payload; percent-encoded payloads are re-encoded as base64. */
  data: string;
}

const DATA_URL = /^data:([^,]*?)(;base64)?,(.*)$/s;

export function parseDataUrl(url: string): DataUrl | undefined {
  const match = DATA_URL.exec(url);
  if (!match) return undefined;
  const [, header = '', base64, payload = ''] = match;
  // Parameters such as `;charset=utf-8` are not part of the media type.
  const mediaType = header.split(';')[0]?.trim().toLowerCase() || 'text/plain';
  if (base64) return { mediaType, data: payload };
  let text: string;
  try {
    text = decodeURIComponent(payload);
  } catch {
    return undefined;
  }
  return { mediaType, data: Buffer.from(text, 'utf8').toString('base64') };
}

export function formatDataUrl(file: DataUrl): string {
  return `data:${file.mediaType};base64,${file.data}`;
}
