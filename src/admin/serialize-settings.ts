import type { Settings } from '../config/settings-schema.js';
import { maskSecret } from './mask-secret.js';

/**
 * The settings as the management API shows them: `webhook_secret` masked as channel keys are,
 * since whoever reads the settings could otherwise sign events the operator's receiver trusts.
 */
export function serializeSettings(settings: Readonly<Settings>) {
  return {
    ...settings,
    webhook_secret: settings.webhook_secret === null ? null : maskSecret(settings.webhook_secret),
    // Whoever holds these could charge cards as the operator, or forge the payments that credit balances.
    stripe_secret_key: settings.stripe_secret_key === null ? null : maskSecret(settings.stripe_secret_key),
    stripe_webhook_secret:
      settings.stripe_webhook_secret === null ? null : maskSecret(settings.stripe_webhook_secret),
  };
}
