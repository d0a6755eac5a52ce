/** Gemini's error statuses and their HTTP codes (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes). */
const STATUS_CODES: Record<string, number> = {
  INVALID_ARGUMENT: 400,
  FAILED_PRECONDITION: 400,
  UNAUTHENTICATED: 401,
  PERMISSION_DENIED: 403,
  NOT_FOUND: 404,
  RESOURCE_EXHAUSTED: 429,
  CANCELLED: 499,
  INTERNAL: 500,
  UNAVAILABLE: 503,
  DEADLINE_EXCEEDED: 504,
};

/**
 * An error as Gemini sends one inside an SSE stream, `data: {"error": {code, message, status}}`,
 * which `@google/genai` raises as an `ApiError`. A gateway timeout is `DEADLINE_EXCEEDED`;
 * a code that already is a Gemini status keeps it; anything else is `UNAVAILABLE`.
 */
export function formatGeminiStreamError(options: { message: string; code?: string | undefined }): string {
  const { code } = options;
  let status = 'UNAVAILABLE';
  if (code === 'upstream_timeout') status = 'DEADLINE_EXCEEDED';
  else if (code !== undefined && code in STATUS_CODES) status = code;
  const error = { code: STATUS_CODES[status], message: options.message, status };
  return `data: ${JSON.stringify({ error })}\r\n\r\n`;
}
