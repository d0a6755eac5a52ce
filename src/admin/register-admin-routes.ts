import type { FastifyInstance } from 'fastify';
import { httpsDetector } from '../http/request-scheme.js';
import type { GatewayServices } from '../services.js';
import { registerAuthMeRoute, registerLoginRoute, registerLogoutRoute } from './auth-routes.js';
import { authorizeApi, type ApiRequirement } from './authorize-api.js';
import { registerSignInOptionsRoute } from './sign-in-options.js';
import { registerBudgetRoutes, registerMyBudgetRoutes } from './budgets.js';
import { registerChannelStatsRoutes } from './channel-stats.js';
import { registerChannelRoutes } from './channels.js';
import { ConsoleSessions } from './console-sessions.js';
import { registerGroupRoutes } from './groups.js';
import { registerKeyRoutes } from './keys.js';
import { registerLogRoutes } from './logs.js';
import { registerMeRoutes } from './me.js';
import { registerMyKeyRoutes } from './my-keys.js';
import { registerMyUsageRoutes } from './my-usage.js';
import { registerPriceRoutes } from './prices.js';
import { registerSettingRoutes } from './settings.js';
import { registerConfigFileRoute } from './config-file-route.js';
import { SignInVerifier } from './sign-in-verifier.js';
import { registerStatsRoutes } from './stats.js';
import { registerUserRoutes } from './users.js';
import { registerModelMetadataRoutes } from './model-metadata.js';
import { registerVirtualModelRoutes } from './virtual-models.js';
import { registerGuardrailRoutes } from './guardrails.js';
import { registerWebhookDeliveryRoutes } from './webhook-deliveries.js';
import { registerOrderRoutes } from './orders.js';
import { registerStripeWebhookRoute } from './stripe-webhook-route.js';
import { registerTopupRoutes } from './topup-routes.js';
import { registerSignUpRoute } from './register-route.js';
import { registerPricingRoute } from './pricing.js';
import { registerRedeemRoute } from './redeem-route.js';
import { registerCreditRoutes, registerMyCreditRoutes } from './credits.js';
import { registerInviteCodeRoutes } from './invite-codes.js';
import { registerRedemptionCodeRoutes } from './redemption-codes.js';

/**
 * The management API (admin-api sections 1, 2, 8 and 15), registered inside the `/api` plugin as
 * four route groups, each with its own authorization: sign-in and sign-up (none), sign-out and the
 * price list (whoever calls, identified when possible), self-service (anyone signed in) and
 * administration (the root admin or an `admin` user).
 */
export async function registerAdminRoutes(app: FastifyInstance, services: GatewayServices): Promise<void> {
  const { repositories, adminAuth } = services;
  const sessions = new ConsoleSessions({
    sessions: repositories.sessions,
    users: repositories.users,
    adminAuth,
  });
  const auth = {
    sessions,
    verifier: new SignInVerifier({ users: repositories.users, adminAuth, throttle: services.loginThrottle }),
    cameOverHttps: httpsDetector(() => services.settings.get().trusted_proxies),
  };
  const guard = (requirement: ApiRequirement) => authorizeApi({ adminAuth, sessions, requirement });
  app.decorateRequest('consoleCaller', undefined);

  app.register(async (group) => {
    registerLoginRoute(group, auth);
    registerSignUpRoute(group, services, auth);
    registerSignInOptionsRoute(group, services);
  });

  // Called by Stripe: the signature over the body is the credential (admin-api section 15).
  app.register(async (group) => registerStripeWebhookRoute(group, services));

  app.register(async (group) => {
    group.addHook('onRequest', guard('anyone'));
    registerLogoutRoute(group, auth);
    registerPricingRoute(group, services);
  });

  app.register(async (group) => {
    group.addHook('onRequest', guard('signed-in'));
    registerAuthMeRoute(group);
    registerMeRoutes(group, services);
    registerMyKeyRoutes(group, services);
    registerMyUsageRoutes(group, services);
    registerMyBudgetRoutes(group, services);
    registerTopupRoutes(group, services, auth);
    registerRedeemRoute(group, services);
    registerMyCreditRoutes(group, services);
  });

  app.register(async (group) => {
    group.addHook('onRequest', guard('admin'));
    registerUserRoutes(group, services);
    registerKeyRoutes(group, services);
    registerChannelRoutes(group, services);
    registerChannelStatsRoutes(group, services);
    registerPriceRoutes(group, services);
    registerGroupRoutes(group, services);
    registerSettingRoutes(group, services);
    registerConfigFileRoute(group, services);
    registerLogRoutes(group, services);
    registerStatsRoutes(group, services);
    registerBudgetRoutes(group, services);
    registerWebhookDeliveryRoutes(group, services);
    registerModelMetadataRoutes(group, services);
    registerVirtualModelRoutes(group, services);
    registerGuardrailRoutes(group, services);
    registerOrderRoutes(group, services);
    registerInviteCodeRoutes(group, services);
    registerRedemptionCodeRoutes(group, services);
    registerCreditRoutes(group, services);
  });
}
