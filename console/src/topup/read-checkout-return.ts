/** Where Stripe's payment page sent the browser back to: the order, and whether the payment was cancelled. */
export interface CheckoutReturn {
  orderId: string | undefined;
  cancelled: boolean;
}

/**
 * The Top up page's query as the gateway's Checkout success and cancel URLs write it
 * (src/payments/checkout-session-params.ts): `?order=ord_...`, and `&canceled=1` when cancelled.
 */
export function readCheckoutReturn(search: string): CheckoutReturn {
  const query = new URLSearchParams(search);
  const order = query.get('order')?.trim();
  return {
    orderId: order === undefined || order === '' ? undefined : order,
    cancelled: query.has('canceled') || query.has('cancelled'),
  };
}
