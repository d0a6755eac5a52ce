import { quoteCost } from '../../billing/quote.js';
import type { Usage } from '../../ir/usage.js';
import type { PriceRecord } from '../../store/prices-repository.js';

/**
 * What one realtime response reserves before it runs (admin-api section 3, rule 2, applied to a
 * session): its input as large as the previous response's (a conversation only grows, and each
 * response reads all of it), with that response's cached and audio shares, and its whole output
 * cap at the output audio price (a session speaks unless told otherwise). The first response of a
 * session has no input counted yet. Nano-USD.
 */
export function quoteResponsePreCharge(options: {
  price: PriceRecord;
  previous: Usage | undefined;
  outputCap: number;
  groupRatio: number;
}): number {
  const { previous, outputCap } = options;
  return quoteCost(
    options.price,
    {
      inputTokens: previous?.inputTokens ?? 0,
      cacheReadTokens: previous?.cacheReadTokens ?? 0,
      cacheWriteTokens: 0,
      inputAudioTokens: previous?.inputAudioTokens ?? 0,
      outputTokens: outputCap,
      outputAudioTokens: outputCap,
      calls: 1,
    },
    options.groupRatio,
  );
}

/**
 * A response's output cap (https://platform.openai.com/docs/api-reference/realtime-client-events):
 * the response's own `max_output_tokens`, else the session's, else `default_max_tokens`; `inf`
 * leaves it to the next one. The beta shape calls the members `max_response_output_tokens`.
 */
export function outputCapOf(...sources: (Record<string, unknown> | undefined)[]): number | undefined {
  for (const source of sources) {
    const cap = source?.max_output_tokens ?? source?.max_response_output_tokens;
    if (typeof cap === 'number' && Number.isInteger(cap) && cap > 0) return cap;
  }
  return undefined;
}
