import type { Settings } from '../config/settings-schema.js';
import type { Logger } from '../observability/logger.js';
import type { Store } from '../store/database.js';
import type { Repositories } from '../store/repositories.js';
import type { StripeClients } from './stripe-clients.js';

/** What top-ups, the Stripe webhook and the reconciler work with (admin-api section 15). */
export interface Payments {
  store: Store;
  repositories: Pick<Repositories, 'orders' | 'orderEvents' | 'balanceCredits'>;
  settings: () => Readonly<Settings>;
  stripe: StripeClients;
  /** Tells every instance's caches that a balance rose. */
  balanceRaised: () => Promise<void>;
  logger: Logger;
}

/** Who saw that an order was paid or is over. */
export type SettledBy = 'webhook' | 'reconciler';
