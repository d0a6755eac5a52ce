import type { StreamError } from '../../ir/stream-event.js';
import { formatSseEvent } from '../sse/sse-event-reader.js';
import { asJsonObject, asString } from '../wire-json.js';

/**
 * The exceptions a ConverseStream stream can carry instead of an event, with the HTTP status each
 * stands for (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_ConverseStream.html#API_runtime_ConverseStream_Errors).
 * On the wire each is a frame whose `:exception-type` header is the member name and whose payload
 * is `{"message": ...}`.
 */
export const CONVERSE_STREAM_EXCEPTION_STATUS = {
  internalServerException: 500,
  modelStreamErrorException: 424,
  validationException: 400,
  throttlingException: 429,
  serviceUnavailableException: 503,
} as const;

export type ConverseStreamException = keyof typeof CONVERSE_STREAM_EXCEPTION_STATUS;

export function isConverseStreamException(value: string | undefined): value is ConverseStreamException {
  return value !== undefined && Object.hasOwn(CONVERSE_STREAM_EXCEPTION_STATUS, value);
}

/**
 * The exception an event name stands for: one of the stream's exceptions, named as the union
 * member (`throttlingException`) or as the error shape (`ThrottlingException`), or any other name
 * ending in `Exception` (an event-stream error frame's `:error-code`), whose status is unknown.
 */
export function readConverseStreamException(
  name: string | undefined,
): { code: string; status?: number } | undefined {
  if (name === undefined) return undefined;
  const known = (Object.keys(CONVERSE_STREAM_EXCEPTION_STATUS) as ConverseStreamException[]).find(
    (exception) => exception.toLowerCase() === name.toLowerCase(),
  );
  if (known) return { code: known, status: CONVERSE_STREAM_EXCEPTION_STATUS[known] };
  return /exception$/i.test(name) ? { code: name } : undefined;
}

/** An exception frame -> the canonical stream error, with the status its exception stands for. */
export function decodeConverseStreamException(
  exception: { code: string; status?: number },
  payload: unknown,
): StreamError {
  const body = asJsonObject(payload);
  return {
    type: 'error',
    message: asString(body?.message) ?? asString(body?.Message) ?? exception.code,
    code: exception.code,
    ...(exception.status === undefined ? {} : { status: exception.status }),
  };
}

/**
 * A canonical error as a Converse stream exception: a code that already names one keeps it;
 * otherwise the HTTP status it stands for picks the closest (429 throttling, 400 and 422
 * validation, 503 and 529 service unavailable, 424 model stream error, other 5xx internal server).
 */
export function formatConverseStreamException(error: {
  message: string;
  code?: string;
  status?: number;
}): string {
  const name = exceptionFor(error);
  return formatSseEvent({ event: name, data: JSON.stringify({ message: error.message }) });
}

function exceptionFor(error: { code?: string; status?: number }): ConverseStreamException {
  if (isConverseStreamException(error.code)) return error.code;
  switch (error.status) {
    case 400:
    case 413:
    case 422:
      return 'validationException';
    case 429:
      return 'throttlingException';
    case 503:
    case 529:
      return 'serviceUnavailableException';
    case 424:
      return 'modelStreamErrorException';
    default:
      return 'internalServerException';
  }
}
