import { randomBytes } from 'node:crypto';
import type Stripe from 'stripe';
import type { FormValue } from './stripe-form.js';

/** A refusal in Stripe's error shape (https://docs.stripe.com/api/errors). */
export interface StripeRefusal {
  status: number;
  error: { type: string; message: string; code?: string; param?: string; doc_url?: string };
}

/** Top-level parameters of `POST /v1/checkout/sessions`; any other is refused, as Stripe does. */
const KNOWN_PARAMETERS = new Set(
  (
    'adaptive_pricing after_expiration allow_promotion_codes allowed_payment_method_types automatic_tax ' +
    'billing_address_collection branding_settings cancel_url client_reference_id consent_collection currency ' +
    'custom_fields custom_text customer customer_account customer_creation customer_email customer_update ' +
    'discounts excluded_payment_method_types expand expires_at integration_identifier invoice_creation ' +
    'line_items locale managed_payments metadata mode name_collection optional_items origin_context ' +
    'payment_intent_data payment_method_collection payment_method_configuration payment_method_data ' +
    'payment_method_options permissions phone_number_collection redirect_on_completion return_url ' +
    'saved_payment_method_options setup_intent_data shipping_address_collection shipping_options submit_type ' +
    'subscription_data success_url tax_id_collection ui_mode wallet_options'
  ).split(' '),
);
const MODES = ['payment', 'setup', 'subscription'];
const EMBEDDED_UI_MODES = new Set(['embedded_page', 'elements', 'embedded', 'custom']);
/** Stripe's smallest charge in US dollars (https://docs.stripe.com/currencies#minimum-and-maximum-charge-amounts). */
const MIN_USD_CENTS = 50;
const MAX_CENTS = 99_999_999;

const missing = (param: string): StripeRefusal => ({
  status: 400,
  error: {
    type: 'invalid_request_error',
    code: 'parameter_missing',
    param,
    message: `Missing required param: ${param}.`,
    doc_url: 'https://stripe.com/docs/error-codes/parameter-missing',
  },
});
const invalid = (param: string, message: string): StripeRefusal => ({
  status: 400,
  error: {
    type: 'invalid_request_error',
    code: 'parameter_invalid_empty',
    param,
    message,
    doc_url: 'https://stripe.com/docs/error-codes/parameter-invalid',
  },
});

const text = (value: FormValue | undefined): string | undefined =>
  typeof value === 'string' ? value : undefined;
const object = (value: FormValue | undefined): { [key: string]: FormValue } | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;

/** The line items' total in the smallest unit, and their currency; or Stripe's refusal. */
function readLineItems(form: {
  [key: string]: FormValue;
}): StripeRefusal | { total: number; currency: string } {
  const items = form.line_items;
  if (!Array.isArray(items) || items.length === 0) return missing('line_items');
  let total = 0;
  let currency: string | undefined;
  for (const [index, entry] of items.entries()) {
    const item = object(entry);
    const at = `line_items[${index}]`;
    if (!item) return invalid(at, `Invalid object: ${at}`);
    if (item.price !== undefined) return invalid(`${at}[price]`, `No such price: '${text(item.price)}'`);
    const priceData = object(item.price_data);
    if (!priceData) return missing(`${at}[price_data]`);
    const itemCurrency = text(priceData.currency);
    if (!itemCurrency) return missing(`${at}[price_data][currency]`);
    if (itemCurrency !== itemCurrency.toLowerCase() || !/^[a-z]{3}$/.test(itemCurrency))
      return invalid(`${at}[price_data][currency]`, `Invalid currency: ${itemCurrency}.`);
    const productData = object(priceData.product_data);
    if (!productData && priceData.product === undefined) return missing(`${at}[price_data][product_data]`);
    if (productData && !text(productData.name)) return missing(`${at}[price_data][product_data][name]`);
    const unitAmount = text(priceData.unit_amount);
    if (unitAmount === undefined) return missing(`${at}[price_data][unit_amount]`);
    if (!/^\d+$/.test(unitAmount))
      return invalid(`${at}[price_data][unit_amount]`, `Invalid integer: ${unitAmount}`);
    const quantity = text(item.quantity);
    if (quantity === undefined) return missing(`${at}[quantity]`);
    if (!/^[1-9]\d*$/.test(quantity))
      return invalid(`${at}[quantity]`, `Invalid positive integer: ${quantity}`);
    if (currency !== undefined && currency !== itemCurrency)
      return invalid(`${at}[price_data][currency]`, 'All line items must have the same currency.');
    currency = itemCurrency;
    total += Number(unitAmount) * Number(quantity);
  }
  if (currency === 'usd' && total < MIN_USD_CENTS)
    return invalid('line_items', "The Checkout Session's total amount due must add up to at least $0.50 usd");
  if (total > MAX_CENTS) return invalid('line_items', 'Amount must be no more than $999,999.99');
  return { total, currency: currency ?? 'usd' };
}

function readMetadata(value: FormValue | undefined): StripeRefusal | { metadata: Record<string, string> } {
  if (value === undefined || value === '') return { metadata: {} };
  const metadata = object(value);
  if (!metadata) return invalid('metadata', 'Invalid hash');
  const result: Record<string, string> = {};
  for (const [key, entry] of Object.entries(metadata)) {
    if (typeof entry !== 'string') return invalid(`metadata[${key}]`, 'Metadata values must be strings.');
    if (key.length > 40) return invalid('metadata', 'Metadata keys can have up to 40 characters.');
    if (entry.length > 500)
      return invalid(`metadata[${key}]`, 'Metadata values can have up to 500 characters.');
    result[key] = entry;
  }
  return { metadata: result };
}

/**
 * Checks a `POST /v1/checkout/sessions` form as Stripe does and builds the session it would answer
 * (https://docs.stripe.com/api/checkout/sessions/create, .../object), or Stripe's refusal.
 */
export function createCheckoutSession(
  form: { [key: string]: FormValue },
  options: { payPageOrigin: string; now: number },
): StripeRefusal | Stripe.Checkout.Session {
  for (const name of Object.keys(form)) {
    if (!KNOWN_PARAMETERS.has(name))
      return {
        status: 400,
        error: {
          type: 'invalid_request_error',
          code: 'parameter_unknown',
          param: name,
          message: `Received unknown parameter: ${name}`,
        },
      };
  }
  const mode = text(form.mode);
  if (mode === undefined) return missing('mode');
  if (!MODES.includes(mode)) return invalid('mode', `Invalid mode: must be one of ${MODES.join(', ')}`);
  const uiMode = text(form.ui_mode) ?? 'hosted_page';
  const embedded = EMBEDDED_UI_MODES.has(uiMode);
  const successUrl = text(form.success_url);
  const cancelUrl = text(form.cancel_url);
  if (!embedded && successUrl === undefined) return missing('success_url');
  if (embedded && successUrl !== undefined)
    return invalid('success_url', `success_url is not allowed when ui_mode is ${uiMode}.`);
  for (const [param, url] of [
    ['success_url', successUrl],
    ['cancel_url', cancelUrl],
  ] as const) {
    if (url !== undefined && !/^https?:\/\//.test(url)) return invalid(param, 'Not a valid URL');
  }
  const lines = mode === 'setup' ? { total: 0, currency: text(form.currency) ?? 'usd' } : readLineItems(form);
  if ('error' in lines) return lines;
  const read = readMetadata(form.metadata);
  if ('error' in read) return read;
  const { metadata } = read;
  const clientReference = text(form.client_reference_id) ?? null;
  if (clientReference !== null && (clientReference.length === 0 || clientReference.length > 200))
    return invalid('client_reference_id', 'client_reference_id must be between 1 and 200 characters.');

  const id = `cs_test_${randomBytes(24).toString('base64url').replace(/[-_]/g, 'a')}`;
  return {
    id,
    object: 'checkout.session',
    adaptive_pricing: null,
    after_expiration: null,
    allow_promotion_codes: null,
    allowed_payment_method_types: null,
    amount_subtotal: lines.total,
    amount_total: lines.total,
    automatic_tax: { enabled: false, liability: null, provider: null, status: null },
    billing_address_collection: null,
    cancel_url: cancelUrl ?? null,
    client_reference_id: clientReference,
    client_secret: embedded ? `${id}_secret_${randomBytes(8).toString('hex')}` : null,
    collected_information: null,
    consent: null,
    consent_collection: null,
    created: options.now,
    currency: lines.currency,
    currency_conversion: null,
    custom_fields: [],
    custom_text: {
      after_submit: null,
      shipping_address: null,
      submit: null,
      terms_of_service_acceptance: null,
    },
    customer: null,
    customer_account: null,
    customer_creation: 'if_required',
    customer_details: null,
    customer_email: text(form.customer_email) ?? null,
    discounts: [],
    expires_at: Number(text(form.expires_at) ?? options.now + 86_400),
    integration_identifier: null,
    invoice: null,
    invoice_creation: null,
    livemode: false,
    locale: null,
    managed_payments: null,
    metadata,
    mode: mode as Stripe.Checkout.Session.Mode,
    origin_context: null,
    payment_intent: null,
    payment_link: null,
    payment_method_collection: 'if_required',
    payment_method_configuration_details: null,
    payment_method_options: {},
    payment_method_types: ['card'],
    payment_status: 'unpaid',
    permissions: null,
    recovered_from: null,
    saved_payment_method_options: null,
    setup_intent: null,
    shipping_address_collection: null,
    shipping_cost: null,
    shipping_options: [],
    status: 'open',
    submit_type: null,
    subscription: null,
    success_url: successUrl ?? null,
    total_details: { amount_discount: 0, amount_shipping: 0, amount_tax: 0 },
    ui_mode: uiMode as Stripe.Checkout.Session.UiMode,
    url: embedded ? null : `${options.payPageOrigin}/c/pay/${id}`,
    wallet_options: null,
  };
}
