import type { FinishReason } from '../../ir/reply.js';

/**
 * Responses has no finish reason: the response `status` and `incomplete_details.reason` say why
 * it ended (https://platform.openai.com/docs/api-reference/responses/object#responses/object-status).
 * A completed response with function calls is a tool-call finish; one whose message holds a
 * `refusal` part (https://platform.openai.com/docs/guides/structured-outputs#refusals) is the
 * model's refusal, a content-filter finish with raw `refusal`. Otherwise `raw` is the status, or
 * the incomplete reason when there is one.
 */
export function mapOpenAIResponsesFinishReason(options: {
  status: string | undefined;
  incompleteReason: string | undefined;
  hasFunctionCalls: boolean;
  hasRefusal?: boolean;
}): FinishReason {
  const { status, incompleteReason, hasFunctionCalls } = options;
  switch (status) {
    case 'completed':
      if (hasFunctionCalls) return { unified: 'tool-calls', raw: status };
      if (options.hasRefusal === true) return { unified: 'content-filter', raw: 'refusal' };
      return { unified: 'stop', raw: status };
    case 'incomplete':
      if (incompleteReason === 'max_output_tokens') return { unified: 'length', raw: incompleteReason };
      if (incompleteReason === 'content_filter') return { unified: 'content-filter', raw: incompleteReason };
      return { unified: 'other', raw: incompleteReason ?? status };
    case 'failed':
      return { unified: 'error', raw: status };
    default:
      return { unified: 'other', raw: status };
  }
}

export interface OpenAIResponsesEnding {
  status: 'completed' | 'incomplete' | 'failed';
  incomplete_details: { reason: 'max_output_tokens' | 'content_filter' } | null;
  error: { code: string; message: string } | null;
}

/** The inverse: how a canonical finish ends a Responses response object. */
export function toOpenAIResponsesEnding(finishReason: FinishReason): OpenAIResponsesEnding {
  const unified = finishReason.unified;
  switch (unified) {
    case 'stop':
    case 'tool-calls':
    case 'other':
      return { status: 'completed', incomplete_details: null, error: null };
    case 'length':
      return { status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, error: null };
    case 'content-filter':
      return { status: 'incomplete', incomplete_details: { reason: 'content_filter' }, error: null };
    case 'error':
      return {
        status: 'failed',
        incomplete_details: null,
        error: {
          code: 'server_error',
          message: `The upstream ended with an error (${finishReason.raw ?? 'unknown'}).`,
        },
      };
    default: {
      const never: never = unified;
      return never;
    }
  }
}
