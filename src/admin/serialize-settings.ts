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
  };
}
