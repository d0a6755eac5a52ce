/** A field a conversion dropped or coerced (DESIGN principle 4): recorded, never silent. */
export interface Loss {
  /** Where, as a path in the source, e.g. `messages[2].content[0].cache_control`. */
  path: string;
  kind: 'dropped' | 'coerced';
  reason: string;
}

/** Collects losses during one conversion. */
export class LossLog {
  readonly losses: Loss[] = [];

  dropped(path: string, reason: string): void {
    this.losses.push({ path, kind: 'dropped', reason });
  }

  coerced(path: string, reason: string): void {
    this.losses.push({ path, kind: 'coerced', reason });
  }
}
