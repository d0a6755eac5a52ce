/** Leaves the console for Stripe's payment page; Stripe sends the browser back to the Top up page. */
export function goToCheckout(url: string): void {
  window.location.assign(url);
}
