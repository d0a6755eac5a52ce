import type Stripe from 'stripe';
import type { Settings } from '../config/settings-schema.js';
import { loadOnFirstUse } from '../load-on-first-use.js';

/** The package's client class; loaded only once a top-up or a webhook needs it. */
const stripePackage = loadOnFirstUse<typeof Stripe>('stripe');

/** A Stripe call that has no answer by then failed; the package retries such calls with the same idempotency key. */
const CALL_TIMEOUT_MS = 20_000;
const NETWORK_RETRIES = 2;

/**
 * The `stripe` package's connection options for `stripe_api_base`: it takes a host, a port and a
 * protocol rather than a URL, and always asks for `/v1/...` below them.
 */
export function stripeConnectionOptions(
  apiBase: string,
): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  const url = new URL(apiBase);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return {
    host: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
    port: url.port === '' ? (protocol === 'http' ? 80 : 443) : Number(url.port),
    protocol,
  };
}

/**
 * One Stripe client for the current `stripe_secret_key` and `stripe_api_base`, made again when
 * either changes, so its connections are reused between calls.
 */
export class StripeClients {
  private cached: { key: string; apiBase: string; client: Stripe } | undefined;

  /** The client for these settings; undefined when no secret key is set. */
  current(settings: Readonly<Settings>): Stripe | undefined {
    const key = settings.stripe_secret_key;
    if (key === null) return undefined;
    const apiBase = settings.stripe_api_base;
    if (this.cached?.key !== key || this.cached.apiBase !== apiBase) {
      const StripeClient = stripePackage();
      const client = new StripeClient(key, {
        ...stripeConnectionOptions(apiBase),
        maxNetworkRetries: NETWORK_RETRIES,
        timeout: CALL_TIMEOUT_MS,
        // Stripe would otherwise be told the latency of our previous calls with each call.
        telemetry: false,
      });
      this.cached = { key, apiBase, client };
    }
    return this.cached.client;
  }
}

/**
 * The event a webhook delivery carries, once its `Stripe-Signature` proves it came from Stripe
 * within `toleranceSeconds`. Throws the package's `StripeSignatureVerificationError` otherwise.
 */
export function verifyStripeEvent(options: {
  body: Buffer;
  signature: string;
  secret: string;
  toleranceSeconds: number;
}): Stripe.Event {
  return stripePackage().webhooks.constructEvent(
    options.body,
    options.signature,
    options.secret,
    options.toleranceSeconds,
  );
}
