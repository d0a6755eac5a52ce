/** How people may sign up (admin-api section 15, setting `registration`). */
export type RegistrationMode = 'closed' | 'open' | 'invite';

/**
 * What the gateway tells anyone, signed in or not, of its self-service settings: whether the
 * sign-in page offers registration (and asks for an invite code), whether the Pricing page is
 * public, and whether card top-up is set up.
 */
export interface PublicOptions {
  registration: RegistrationMode;
  pricing_public: boolean;
  /** Card top-up is set up (a Stripe secret key is saved). */
  topup: boolean;
  topup_min_usd: number;
}
