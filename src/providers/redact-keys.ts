/**
 * Some upstreams echo the credential they were sent in an error message (`Incorrect API key
 * provided: sk-...`). Every text that leaves the gateway or reaches a log from an upstream goes
 * through this first, with the channel's keys.
 */
export function redactKeys(text: string, keys: readonly string[]): string {
  let redacted = text;
  for (const key of keys)
    if (key.length >= 4 && redacted.includes(key)) redacted = redacted.split(key).join('***');
  return redacted;
}
