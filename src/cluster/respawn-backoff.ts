export interface RespawnBackoffOptions {
  /** The wait after the second quick death in a row; it doubles with each further one. */
  initialMs?: number;
  maxMs?: number;
  /** A worker that lived this long ends a run of quick deaths. */
  stableMs?: number;
}

/**
 * How long to wait before replacing a worker that died. The first death after a stable life is
 * replaced at once (its requests are gone, and so is a share of the machine); deaths that follow
 * each other quickly, a crash loop, wait longer and longer so they cannot spin.
 */
export class RespawnBackoff {
  private quickDeaths = 0;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly stableMs: number;

  constructor(options: RespawnBackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 250;
    this.maxMs = options.maxMs ?? 30_000;
    this.stableMs = options.stableMs ?? 10_000;
  }

  /** The wait before replacing a worker that lived `livedMs`. */
  next(livedMs: number): number {
    if (livedMs >= this.stableMs) this.quickDeaths = 0;
    const delay =
      this.quickDeaths === 0 ? 0 : Math.min(this.maxMs, this.initialMs * 2 ** (this.quickDeaths - 1));
    this.quickDeaths += 1;
    return delay;
  }
}
