/** A management API call that failed: the gateway's own message, code and HTTP status. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** The body member a 400 `invalid_request` names, e.g. `name` or `targets.0.weight`. */
  readonly param: string | undefined;

  constructor(options: {
    status: number;
    message: string;
    code?: string | undefined;
    param?: string | undefined;
  }) {
    super(options.message);
    this.name = 'ApiError';
    this.status = options.status;
    this.code = options.code;
    this.param = options.param;
  }
}

/** The text to show for any failure, API or network. */
export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}
