/**
 * Token usage in the canonical form. `inputTokens` counts every input token, those read from
 * and written to the prompt cache included; `outputTokens` counts every output token, reasoning
 * included. `undefined` means unknown, and unknown is never billed as free.
 */
export interface Usage {
  inputTokens: number | undefined;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  /** Cache writes by time-to-live where the provider tells them apart (part of `cacheWriteTokens`). */
  cacheWrite5mTokens?: number;
  cacheWrite1hTokens?: number;
  outputTokens: number | undefined;
  reasoningTokens: number;
  /** Server-side tool calls billed per call, such as web searches. */
  webSearchCalls: number;
  /** Of the input and output tokens, those of audio (admin-api section 14). */
  inputAudioTokens?: number;
  outputAudioTokens?: number;
  /** Seconds of input audio, charged at `per_minute`. */
  audioSeconds?: number;
  /** Characters of text turned into speech, charged at `per_million_characters`. */
  characters?: number;
  /** True when any count came from the gateway's own tokenizer rather than the upstream. */
  estimated: boolean;
  /** The provider's usage block as received, for audit. */
  raw?: unknown;
}

export function emptyUsage(): Usage {
  return {
    inputTokens: undefined,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    outputTokens: undefined,
    reasoningTokens: 0,
    webSearchCalls: 0,
    estimated: false,
  };
}
