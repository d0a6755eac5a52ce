import type { StreamError } from '../../ir/stream-event.js';
import { isContentFilterError } from './is-content-filter-error.js';
import { isContextLengthError } from './is-context-length-error.js';
import {
  readUpstreamErrorFacts,
  type UpstreamErrorFacts,
  type UpstreamErrorSource,
} from './read-upstream-error-facts.js';

/**
 * Why an upstream attempt failed (admin-api 11.3): the one classification that fallback
 * (`fallback_on`), channel health and metrics all read. `other` is every failure that another
 * channel or target would answer no better (a bad parameter, a refused key, a missing model).
 */
export type FailureKind =
  'timeout' | 'rate_limit' | 'server_error' | 'context_length' | 'content_filter' | 'other';

/** What the relay knows of a failed attempt. */
export type FailedAttempt =
  /** No reply: the connection failed, or one of the gateway's time limits ran out. */
  | { kind: 'transport' }
  /** The upstream answered with an error status; its body as read (up to `MAX_ERROR_BODY_BYTES`). */
  | ({ kind: 'reply'; status: number } & UpstreamErrorSource)
  /** An error event inside a stream, before its first content; code and status when the protocol gives them. */
  | { kind: 'stream-error'; error: Pick<StreamError, 'message' | 'code' | 'status'> };

/**
 * The statuses a refusal of the input comes with: 400 from the vendors themselves, 413 and 422
 * from servers that validate before the model (TGI answers 422).
 */
const INPUT_REFUSAL_STATUSES = new Set([400, 413, 422]);

/** The kind of a failed attempt, read once where the upstream's reply is read. */
export function classifyFailure(failure: FailedAttempt): FailureKind {
  switch (failure.kind) {
    case 'transport':
      return 'timeout';
    case 'reply':
      return classifyReply(failure);
    case 'stream-error': {
      const { message, code } = failure.error;
      const facts: UpstreamErrorFacts = {
        codes: new Set(code ? [code.toLowerCase()] : []),
        messages: [message],
      };
      return refusalOfInput(facts) ?? 'server_error';
    }
    default: {
      const unknown: never = failure;
      return unknown;
    }
  }
}

function classifyReply(reply: { status: number } & UpstreamErrorSource): FailureKind {
  const { status } = reply;
  if (status === 429) return 'rate_limit';
  // Bedrock's ModelTimeoutException: the model did not answer in time.
  if (status === 408) return 'timeout';
  // Bedrock's ModelErrorException: the model failed while answering, a failure of the upstream
  // (https://docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_InvokeModel.html#API_runtime_InvokeModel_Errors).
  if (status === 424 || (status >= 500 && status < 600)) return 'server_error';
  if (!INPUT_REFUSAL_STATUSES.has(status)) return 'other';
  return refusalOfInput(readUpstreamErrorFacts(reply)) ?? 'other';
}

function refusalOfInput(facts: UpstreamErrorFacts): 'context_length' | 'content_filter' | undefined {
  if (isContextLengthError(facts)) return 'context_length';
  if (isContentFilterError(facts)) return 'content_filter';
  return undefined;
}
