/**
 * The console page's Content-Security-Policy. Scripts come only from the gateway's own hashed
 * files. Styles also allow inline ones: Mantine writes `<style>` elements at run time (the
 * AppShell's media queries, responsive props, the scroll lock of modals), and a nonce would need
 * a different page per response.
 * https://developer.mozilla.org/docs/Web/HTTP/Headers/Content-Security-Policy
 */
export const CONSOLE_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

/** The entry page: revalidated on every visit, so a new build is picked up at once. */
export const CONSOLE_PAGE_HEADERS = {
  'content-security-policy': CONSOLE_CONTENT_SECURITY_POLICY,
  'cache-control': 'no-cache',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
} as const;

/** Files under /assets/ carry a content hash in their names, so they never change. */
export const CONSOLE_ASSET_HEADERS = {
  'cache-control': 'public, max-age=31536000, immutable',
  'x-content-type-options': 'nosniff',
} as const;
