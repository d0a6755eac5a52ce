import { describe, expect, test } from 'vitest';
import { describeStripeError } from '../../src/payments/describe-stripe-error.js';
import { stripeConnectionOptions } from '../../src/payments/stripe-clients.js';
import { nextCheckDelaySeconds } from '../../src/payments/topup-reconciler.js';

describe('stripeConnectionOptions', () => {
  test.each([
    ['https://api.stripe.com', { host: 'api.stripe.com', port: 443, protocol: 'https' }],
    ['http://127.0.0.1:12111', { host: '127.0.0.1', port: 12111, protocol: 'http' }],
    ['https://stripe-proxy.internal:8443/', { host: 'stripe-proxy.internal', port: 8443, protocol: 'https' }],
    ['http://[::1]:4000', { host: '::1', port: 4000, protocol: 'http' }],
  ])('%s', (base, expected) => {
    expect(stripeConnectionOptions(base)).toEqual(expected);
  });
});

describe('describeStripeError', () => {
  test('keeps what Stripe said and hides anything shaped like a secret', () => {
    const error = Object.assign(
      new Error('Invalid API Key provided: sk_test_abcdefghijklmnop1234, also whsec_zyxw+/='),
      {
        type: 'StripeAuthenticationError',
        statusCode: 401,
      },
    );
    const described = describeStripeError(error);
    expect(described).toBe(
      'HTTP 401 StripeAuthenticationError: Invalid API Key provided: sk_****, also whsec_****',
    );
    expect(
      describeStripeError(
        Object.assign(new Error('Missing required param: mode.'), {
          code: 'parameter_missing',
          statusCode: 400,
        }),
      ),
    ).toBe('HTTP 400 parameter_missing: Missing required param: mode.');
    expect(describeStripeError('thrown text')).toBe('unknown error');
  });
});

test('an order left open is checked again after a quarter of its age, between a minute and an hour', () => {
  expect(nextCheckDelaySeconds(0)).toBe(60);
  expect(nextCheckDelaySeconds(600)).toBe(150);
  expect(nextCheckDelaySeconds(3_600)).toBe(900);
  expect(nextCheckDelaySeconds(86_400)).toBe(3_600);
});
