/**
 * The HTTP status an in-stream error code stands for: the codes of a failed response's `error`
 * (`ResponseError.code`) and of `error` events, as the API answers them outside a stream
 * (https://platform.openai.com/docs/guides/error-codes). An unknown code has no known status.
 */
export function mapOpenAIResponsesErrorStatus(code: string | undefined): number | undefined {
  switch (code) {
    case 'rate_limit_exceeded':
    case 'insufficient_quota':
      return 429;
    case 'server_error':
      return 500;
    case 'service_unavailable':
    case 'overloaded':
      return 503;
    case 'vector_store_timeout':
      return 504;
    case undefined:
      return undefined;
    default:
      // The image and prompt codes (`invalid_prompt`, `invalid_image`, `image_too_large`...) are request problems.
      return /^(invalid_|image_|unsupported_|empty_|failed_to_download|bio_policy|data_residency)/.test(code)
        ? 400
        : undefined;
  }
}

/**
 * The inverse, for the gateway's own failed responses: `ResponseError.code` is a closed list, so a
 * status other than rate limiting is a server error.
 */
export function toOpenAIResponsesErrorCode(
  status: number | undefined,
): 'rate_limit_exceeded' | 'server_error' {
  return status === 429 ? 'rate_limit_exceeded' : 'server_error';
}
