import type { LossLog } from '../../ir/loss.js';

/** Where a conversion step is, for the losses it records. */
export interface LossContext {
  /** A path in the source, e.g. `messages[2].parts[0]`. */
  path: string;
  losses: LossLog;
}
