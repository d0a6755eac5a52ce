/**
 * Input tokens of a request before the upstream reports them: a bound that costs next to nothing,
 * which the reservation takes, and the tokenizer's count, taken only when something needs it (a
 * refused reservation, a reply without an input count, a converted stream that announces one).
 */
export interface TokenEstimate {
  /** Never below `count()`. */
  readonly atMost: number;
  count(): number;
}

/** An estimate already counted. */
export function exactTokens(tokens: number): TokenEstimate {
  return { atMost: tokens, count: () => tokens };
}
