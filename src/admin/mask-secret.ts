const SHORTEST_PARTLY_SHOWN = 16;

/**
 * What reads show of an upstream credential: its first and last four characters, enough to tell
 * keys apart. Short secrets are hidden whole, since eight characters would give most of them away.
 */
export function maskSecret(secret: string): string {
  if (secret.length < SHORTEST_PARTLY_SHOWN) return '****';
  return `${secret.slice(0, 4)}...${secret.slice(-4)}`;
}
