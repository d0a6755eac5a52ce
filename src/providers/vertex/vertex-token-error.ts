/**
 * A failed exchange of a service-account key for an access token. It names the token URL, the
 * service account and Google's `error` / `error_description`, never the key or the assertion.
 */
export class VertexTokenError extends Error {
  /** The token endpoint's HTTP status; undefined when no answer came (connect, timeout). */
  readonly status: number | undefined;
  /** Google's `error` member (`invalid_grant`, `invalid_scope`, ...), when it sent one. */
  readonly oauthError: string | undefined;
  /**
   * Worth trying again later: no answer, 429 or 5xx. A refused key or assertion (4xx, such as
   * `invalid_grant`) is not: the credential itself is at fault.
   */
  readonly retryable: boolean;

  constructor(
    message: string,
    options: { status?: number; oauthError?: string; retryable?: boolean; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
    this.name = 'VertexTokenError';
    this.status = options.status;
    this.oauthError = options.oauthError;
    this.retryable =
      options.retryable ?? (options.status === undefined || options.status === 429 || options.status >= 500);
  }
}
