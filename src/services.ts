import type { AdminAuthenticator } from './admin/admin-authenticator.js';
import type { HoldKeeper } from './billing/hold-keeper.js';
import type { ChangeFeed } from './events/change-feed.js';
import type { RelayServices } from './relay/handle-relay.js';
import type { Store } from './store/database.js';
import type { Repositories } from './store/repositories.js';

/** Everything a request handler may call, built once at start. */
export interface GatewayServices extends RelayServices {
  store: Store;
  repositories: Repositories;
  changes: ChangeFeed;
  adminAuth: AdminAuthenticator;
  holdKeeper: HoldKeeper;
}
