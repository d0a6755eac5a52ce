/** The console's two cookies (admin-api section 8). */
export const SESSION_COOKIE = 'gw_session';
export const CSRF_COOKIE = 'gw_csrf';

/**
 * Reads one cookie from a `Cookie` header (RFC 6265 section 5.4). Our values are base64url, so
 * there is nothing to decode; a name sent twice (one cookie per path or domain) gives the first.
 */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const pair of header.split(';')) {
    const separator = pair.indexOf('=');
    if (separator < 0 || pair.slice(0, separator).trim() !== name) continue;
    const value = pair.slice(separator + 1).trim();
    return value === '' ? undefined : value.replace(/^"(.*)"$/, '$1');
  }
  return undefined;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  httpOnly: boolean;
  /** Set when the page was reached over HTTPS, so the browser never sends the cookie in clear. */
  secure: boolean;
}

/** One `Set-Cookie` value, always `Path=/` and `SameSite=Lax`. */
export function serializeCookie(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, 'Path=/', `Max-Age=${options.maxAge}`];
  if (options.maxAge === 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (options.httpOnly) parts.push('HttpOnly');
  parts.push('SameSite=Lax');
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}

/** The two `Set-Cookie` values that sign a browser in to a session just started. */
export function sessionCookies(
  started: { token: string; csrfToken: string; maxAge: number },
  secure: boolean,
): string[] {
  return [
    serializeCookie(SESSION_COOKIE, started.token, { maxAge: started.maxAge, httpOnly: true, secure }),
    serializeCookie(CSRF_COOKIE, started.csrfToken, { maxAge: started.maxAge, httpOnly: false, secure }),
  ];
}
