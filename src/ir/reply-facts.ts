/**
 * What a reply says about itself, read on the side for traces: the model that answered (which may
 * be a dated version of the one asked for) and the upstream's own finish reasons, one per choice.
 */
export interface ReplyFacts {
  model?: string | undefined;
  finishReasons?: readonly string[] | undefined;
}

/** Collects finish reasons by choice index as a stream reports them; no allocation until one comes. */
export class FinishReasons {
  private reasons: string[] | undefined;

  set(index: number, reason: string): void {
    this.reasons ??= [];
    this.reasons[index] = reason;
  }

  list(): string[] | undefined {
    return this.reasons?.filter((reason) => reason !== undefined);
  }
}
