import type { Usage } from '../ir/usage.js';
import { estimateTextTokens } from './estimate-tokens.js';
import type { BillableUsage } from './quote.js';
import type { TokenEstimate } from './token-estimate.js';

/**
 * Fills what the upstream did not report with the gateway's own counts (admin-api section 3, rule 1):
 * input from the request's estimate, output from the text actually produced.
 */
export function resolveBillableUsage(options: {
  reported: Usage | undefined;
  inputTokens: TokenEstimate;
  producedText: () => string;
  calls: number;
}): { billable: BillableUsage; usage: Usage } {
  const reported = options.reported;
  const inputTokens = reported?.inputTokens ?? options.inputTokens.count();
  const outputTokens = reported?.outputTokens ?? estimateTextTokens(options.producedText());
  const usage: Usage = {
    inputTokens,
    cacheReadTokens: reported?.cacheReadTokens ?? 0,
    cacheWriteTokens: reported?.cacheWriteTokens ?? 0,
    outputTokens,
    reasoningTokens: reported?.reasoningTokens ?? 0,
    webSearchCalls: reported?.webSearchCalls ?? 0,
    estimated:
      reported?.inputTokens === undefined ||
      reported?.outputTokens === undefined ||
      Boolean(reported?.estimated),
    raw: reported?.raw,
    ...(reported?.inputAudioTokens !== undefined && { inputAudioTokens: reported.inputAudioTokens }),
    ...(reported?.outputAudioTokens !== undefined && { outputAudioTokens: reported.outputAudioTokens }),
    ...(reported?.audioSeconds !== undefined && { audioSeconds: reported.audioSeconds }),
    ...(reported?.characters !== undefined && { characters: reported.characters }),
  };
  return {
    usage,
    billable: {
      inputTokens,
      cacheReadTokens: usage.cacheReadTokens,
      cacheWriteTokens: usage.cacheWriteTokens,
      outputTokens,
      calls: options.calls,
      inputAudioTokens: usage.inputAudioTokens ?? 0,
      outputAudioTokens: usage.outputAudioTokens ?? 0,
      audioSeconds: usage.audioSeconds ?? 0,
      characters: usage.characters ?? 0,
    },
  };
}
