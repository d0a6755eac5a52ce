/**
 * A `fetch` for clients that hard-code Google's URLs (google-auth-library's token endpoint): it
 * sends each URL named in `redirects` to its local stand-in, and refuses anything that would
 * leave 127.0.0.1. `sent` lists the URLs asked for, before redirection.
 */
export function localOnlyFetch(redirects: Record<string, string>): typeof fetch & { sent: string[] } {
  const sent: string[] = [];
  const guarded = (input: string | URL | Request, init?: RequestInit) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    sent.push(url);
    const target = redirects[url] ?? url;
    if (new URL(target).hostname !== '127.0.0.1')
      return Promise.reject(new Error(`localOnlyFetch: refusing to send to ${url}`));
    return fetch(target, init);
  };
  return Object.assign(guarded, { sent });
}
