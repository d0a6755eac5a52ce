import type { GeminiErrorBody, GeminiErrorStatus } from './wire-types.js';

/** Gemini's error statuses and their HTTP codes (https://ai.google.dev/gemini-api/docs/troubleshooting#error-codes). */
const STATUS_CODES: Record<GeminiErrorStatus, number> = {
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

/** The status Gemini names an HTTP status by; Anthropic's 529 (overloaded) is Gemini's 503. */
const STATUS_OF_HTTP: Record<number, GeminiErrorStatus> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  408: 'DEADLINE_EXCEEDED',
  // AWS's 424 (Bedrock's modelStreamErrorException, ModelErrorException): the model failed while
  // answering, a server-side failure, not the client's argument.
  424: 'INTERNAL',
  429: 'RESOURCE_EXHAUSTED',
  499: 'CANCELLED',
  500: 'INTERNAL',
  502: 'UNAVAILABLE',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
  529: 'UNAVAILABLE',
};

function isGeminiErrorStatus(value: string | undefined): value is GeminiErrorStatus {
  return value !== undefined && Object.hasOwn(STATUS_CODES, value);
}

/**
 * An error as Gemini sends one inside an SSE stream, `data: {"error": {code, message, status}}`,
 * which `@google/genai` raises as an `ApiError` whose `status` is `code`. A code that already is a
 * Gemini status keeps it; otherwise the HTTP status the error stands for names it (429 is
 * `RESOURCE_EXHAUSTED`, 529 and 503 `UNAVAILABLE`); a gateway timeout is `DEADLINE_EXCEEDED`;
 * anything else is `UNAVAILABLE`.
 */
export function formatGeminiStreamError(options: {
  message: string;
  code?: string | undefined;
  status?: number | undefined;
}): string {
  const body: GeminiErrorBody = { error: geminiError(options) };
  return `data: ${JSON.stringify(body)}\r\n\r\n`;
}

function geminiError(options: {
  message: string;
  code?: string | undefined;
  status?: number | undefined;
}): GeminiErrorBody['error'] {
  const { code, status: httpStatus } = options;
  let status: GeminiErrorStatus = 'UNAVAILABLE';
  if (isGeminiErrorStatus(code)) status = code;
  else if (httpStatus !== undefined && STATUS_OF_HTTP[httpStatus] !== undefined)
    status = STATUS_OF_HTTP[httpStatus];
  else if (httpStatus !== undefined && httpStatus >= 500) status = 'INTERNAL';
  else if (httpStatus !== undefined && httpStatus >= 400) status = 'INVALID_ARGUMENT';
  else if (code === 'upstream_timeout') status = 'DEADLINE_EXCEEDED';
  return { code: STATUS_CODES[status], message: options.message, status };
}
