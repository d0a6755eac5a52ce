import type { PrincipalCache } from './auth/principal-cache.js';
import type { AdminAuthenticator } from './admin/admin-authenticator.js';
import type { LiveSettings } from './config/live-settings.js';
import type { ChangeFeed } from './events/change-feed.js';
import type { RoutingCatalog } from './routing/routing-catalog.js';
import type { Store } from './store/database.js';
import type { Repositories } from './store/repositories.js';

/** Everything a request handler may call, built once at start. */
export interface GatewayServices {
  store: Store;
  repositories: Repositories;
  changes: ChangeFeed;
  settings: LiveSettings;
  principals: PrincipalCache;
  catalog: RoutingCatalog;
  adminAuth: AdminAuthenticator;
}
