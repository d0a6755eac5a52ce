export type ContentEncoding = 'br' | 'gzip' | 'identity';

/**
 * The best encoding the client accepts among those available: Brotli, then gzip, else none.
 * `q=0` refuses an encoding (RFC 9110 section 12.5.3); `*` accepts every one not named.
 */
export function pickContentEncoding(
  acceptEncoding: string | undefined,
  available: { br: boolean; gzip: boolean },
): ContentEncoding {
  if (!acceptEncoding) return 'identity';
  const qualities = new Map<string, number>();
  for (const part of acceptEncoding.split(',')) {
    const [name = '', ...parameters] = part.trim().toLowerCase().split(';');
    const quality = parameters.map((parameter) => parameter.trim()).find((item) => item.startsWith('q='));
    qualities.set(name.trim(), quality ? Number(quality.slice(2)) : 1);
  }
  const accepts = (name: string) => {
    const quality = qualities.get(name) ?? qualities.get('*');
    return quality !== undefined && quality > 0;
  };
  if (available.br && accepts('br')) return 'br';
  if (available.gzip && accepts('gzip')) return 'gzip';
  return 'identity';
}
