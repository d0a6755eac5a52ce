import type { AdminAuthenticator } from './admin/admin-authenticator.js';
import type { HoldKeeper } from './billing/hold-keeper.js';
import type { ChangeFeed } from './events/change-feed.js';
import type { LoginThrottle } from './limits/login-throttle.js';
import type { Telemetry } from './observability/telemetry.js';
import type { RelayServices } from './relay/handle-relay.js';
import type { RetentionJob } from './store/retention-job.js';
import type { Store } from './store/database.js';
import type { Repositories } from './store/repositories.js';
import type { WebhookDeliverer } from './events/webhooks/webhook-deliverer.js';
import type { Payments } from './payments/payments.js';
import type { TopupReconciler } from './payments/topup-reconciler.js';

/** Everything a request handler may call, built once at start. */
export interface GatewayServices extends RelayServices {
  store: Store;
  repositories: Repositories;
  changes: ChangeFeed;
  adminAuth: AdminAuthenticator;
  holdKeeper: HoldKeeper;
  /** Failed console sign-ins per username and client IP (admin-api section 8). */
  loginThrottle: LoginThrottle;
  /** Metrics, traces and readiness (admin-api section 9). */
  telemetry: Telemetry;
  /** Sends stored events to `webhook_url` (admin-api section 10.1). */
  webhooks: WebhookDeliverer;
  /** Deletes usage records past `log_retention_days` (admin-api section 12). */
  retention: RetentionJob;
  /** Stripe top-ups: orders, Checkout Sessions, the webhook (admin-api section 15). */
  payments: Payments;
  /** Checks pending orders against Stripe, so that a lost webhook never loses a payment. */
  topupReconciler: TopupReconciler;
}
