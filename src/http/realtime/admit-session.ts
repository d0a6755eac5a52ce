import type { Principal } from '../../auth/principal.js';
import { rateLimitError } from '../../limits/rate-limit-error.js';
import type { Reservation } from '../../billing/balance-ledger.js';
import type { LimitedScope } from '../../billing/budgets/request-windows.js';
import { GatewayError } from '../../errors/gateway-error.js';
import { limitedScopesOf } from '../../relay/limited-scopes.js';
import { preflight, type RelayPlan } from '../../relay/preflight.js';
import type { RequestObservation } from '../../relay/relay-observer.js';
import { upstreamHeldError } from '../../relay/upstream-held-error.js';
import type { PairHold } from '../../routing/channel-health.js';
import type { GatewayServices } from '../../services.js';
import type { BudgetWindowsRepository } from '../../store/budget-windows-repository.js';
import { realtimeEndpoint } from './realtime-endpoint.js';
import { REALTIME_ENDPOINT } from './response-meter.js';
import { quoteResponsePreCharge } from './response-pre-charge.js';
import { sessionWindows } from './session-windows.js';
import { checkSpendingRoom } from './spending-room.js';

export interface SessionAdmission {
  plan: RelayPlan;
  scopes: readonly LimitedScope[];
  /** The session's own hold: its concurrency slots, held until it closes; no money. */
  reservation: Reservation;
}

const NO_BODY: Record<string, unknown> = {};

/**
 * Every check on a realtime upgrade before an upstream is dialled, in the order an HTTP request
 * meets them (client-api section 7, admin-api sections 3, 10 and 14): the model named, allowed by
 * the key's Model Limits, served by a channel of the key's group that declares `realtime`, priced;
 * not held after an upstream 429; the key's rate limits; room to spend (balance, key quota,
 * budgets); then the session's hold, which takes a concurrency slot. Throws the refusal.
 */
export async function admitSession(
  services: GatewayServices,
  request: {
    principal: Principal;
    requestedModel: string | undefined;
    requestId: string;
    budgetWindows: BudgetWindowsRepository;
    observation: RequestObservation;
  },
): Promise<SessionAdmission> {
  const { principal } = request;
  const plan = preflight(
    {
      endpoint: realtimeEndpoint,
      principal,
      requestedModel: request.requestedModel,
      body: NO_BODY,
      onModelSelected: () => undefined,
    },
    services.catalog,
  );
  const hold = heldEverywhere(services, plan);
  if (hold) throw upstreamHeldError(hold);

  const { key, user } = principal;
  if (key.rpm !== null || key.tpm !== null) {
    const admission = await services.rateLimiter.admit(key.id, { rpm: key.rpm, tpm: key.tpm });
    if (!admission.allowed) {
      request.observation.rateLimited(admission.limit);
      throw rateLimitError(key, admission);
    }
  }

  const settings = services.settings.get();
  const scopes = limitedScopesOf(principal, services.catalog);
  const first = plan.targets[0]!;
  const nowMs = Date.now();
  const refusal = await checkSpendingRoom(
    { repositories: services.repositories, budgetWindows: request.budgetWindows },
    {
      principal,
      scopes,
      model: first.model,
      need: quoteResponsePreCharge({
        price: first.price,
        previous: undefined,
        outputCap: settings.default_max_tokens,
        groupRatio: plan.groupRatio,
      }),
      timeZone: settings.budget_time_zone,
      nowMs,
    },
  );
  if (refusal) throw refusal;

  const { slots } = sessionWindows(scopes, {
    model: first.model,
    tokens: 0,
    nowMs,
    timeZone: settings.budget_time_zone,
    events: false,
  });
  const reservation = await services.ledger.reserve({
    requestId: request.requestId,
    model: first.model,
    requestedModel: plan.namedModel === first.model ? undefined : plan.namedModel,
    endpoint: REALTIME_ENDPOINT,
    stream: true,
    userId: user.id,
    keyId: key.id,
    keyCapped: !key.unlimitedQuota,
    amount: 0,
    budget: slots,
  });
  return { plan, scopes, reservation };
}

/** The hold ending first when every target's every channel is held after an upstream 429. */
function heldEverywhere(services: GatewayServices, plan: RelayPlan): PairHold | undefined {
  let first: PairHold | undefined;
  for (const target of plan.targets) {
    const hold = services.health.held(target.candidates, target.model);
    if (!hold) return undefined;
    if (!first || hold.untilMs < first.untilMs) first = hold;
  }
  return first;
}
