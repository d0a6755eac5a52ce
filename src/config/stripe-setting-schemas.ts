import { z } from 'zod';
import { httpUrlSchema } from './http-url-schema.js';

/** Stripe charges at least 0.50 USD, and at most 999,999.99 USD in one payment. */
export const STRIPE_MIN_USD = 0.5;
export const STRIPE_MAX_USD = 999_999.99;

/** A secret API key (`sk_`) or a restricted one (`rk_`); a publishable key (`pk_`) cannot create sessions. */
export const stripeSecretKeySchema = z
  .string()
  .max(1024)
  .regex(
    /^(sk|rk)_(test|live)_\S+$/,
    'must be a Stripe secret key (sk_test_..., sk_live_... or a restricted rk_ key)',
  );

export const stripeWebhookSecretSchema = z
  .string()
  .max(1024)
  .regex(/^whsec_\S+$/, 'must be the signing secret of a Stripe webhook endpoint (whsec_...)');

/**
 * Where the Stripe API answers: an origin only, since the `stripe` package takes a host, a port and
 * a protocol and always asks for `/v1/...` below them.
 */
export const stripeApiBaseSchema = httpUrlSchema.max(2048).refine((text) => {
  if (!URL.canParse(text)) return false;
  const url = new URL(text);
  return (
    url.pathname === '/' && url.search === '' && url.hash === '' && url.username === '' && url.password === ''
  );
}, 'must be an origin such as https://api.stripe.com (no path, query or credentials)');
