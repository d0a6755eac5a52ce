import type { Principal } from '../auth/principal.js';
import { GatewayError } from '../errors/gateway-error.js';
import { invalidMember } from '../protocols/request-flags.js';
import { orderCandidates } from '../routing/order-candidates.js';
import type { RouteTarget } from '../routing/policy/route-target.js';
import type { RoutableChannel, RoutingCatalog } from '../routing/routing-catalog.js';
import {
  FALLBACK_KINDS,
  type FallbackKind,
  type VirtualModelRecord,
} from '../store/virtual-models-repository.js';
import { parseModelReference, type ReasoningEffort } from './model-modifier.js';
import type { RelayEndpoint } from './relay-endpoint.js';

export interface PreflightInput {
  endpoint: RelayEndpoint;
  principal: Principal;
  /** Model as the client named it: the body's `model`, or the path's for Gemini. */
  requestedModel: unknown;
  body: Record<string, unknown>;
  /** Called once the model is selected, when errors switch to the endpoint's own shape. */
  onModelSelected(): void;
}

export interface RelayPlan {
  /** The model as the client wrote it, modifier included. */
  requestedModel: string;
  /** The public model the client named (modifier stripped): a virtual model's name, or `model`. */
  namedModel: string;
  effort: ReasoningEffort | undefined;
  /**
   * What may serve the request, in the order to try (admin-api section 11.3): the named model, or a
   * virtual model's targets in its strategy's order, then the models of the body's `models`.
   */
  targets: readonly RouteTarget[];
  /** The failures that move on to the next target. */
  fallbackOn: ReadonlySet<FallbackKind>;
  /** The virtual model named, when one was. */
  virtual: VirtualModelRecord | undefined;
  groupRatio: number;
}

const EVERY_FALLBACK: ReadonlySet<FallbackKind> = new Set(FALLBACK_KINDS);

/**
 * Every check that needs no upstream, in the order the spec implies: model named, modifier valid,
 * model allowed for the key, a channel serves it, the body has its required fields, the model is
 * priced. Fallback models of the body are checked against the key's Model Limits too; those
 * without a price or a channel are left out.
 */
export function preflight(input: PreflightInput, catalog: RoutingCatalog): RelayPlan {
  const { endpoint, principal, body } = input;
  if (typeof input.requestedModel !== 'string' || input.requestedModel.trim() === '') {
    throw new GatewayError('model_missing');
  }
  const requestedModel = input.requestedModel;
  const { model, effort } = parseModelReference(requestedModel);
  if (principal.modelLimits && !principal.modelLimits.has(model)) {
    throw new GatewayError('model_not_allowed', { model });
  }
  const fallbackModels = endpoint.takesFallbackModels ? readFallbackModels(body, principal) : undefined;

  // A channel added later that serves the same name wins, as it does in the model lists.
  const virtual = catalog.servesModel(model) ? undefined : catalog.virtualModel(model);
  const context = { endpoint, principal, catalog };
  const named: RouteTarget[] = [];
  if (virtual) {
    for (const target of orderCandidates(virtual.targets)) {
      const routed = routeTarget(target.model, context, false);
      if (routed) named.push(routed);
    }
  } else {
    const candidates = selectCandidates({ ...context, model });
    const price = catalog.price(model);
    if (candidates.length > 0 && price) named.push({ model, candidates, price, requestFallback: false });
    else if (!fallbackModels?.some((fallback) => routeTarget(fallback, context, true))) {
      if (candidates.length === 0) throw unserved(model, context);
      input.onModelSelected();
      validate(input);
      throw new GatewayError('model_price_missing', { model });
    }
  }
  const targets = fallbackModels ? withFallbacks(named, fallbackModels, context) : named;
  if (targets.length === 0) throw unserved(model, context);
  input.onModelSelected();
  validate(input);
  return {
    requestedModel,
    namedModel: model,
    effort,
    targets,
    fallbackOn: virtual ? new Set(virtual.fallbackOn) : EVERY_FALLBACK,
    virtual,
    groupRatio: catalog.groupRatio(principal.group),
  };
}

interface RouteContext {
  endpoint: RelayEndpoint;
  principal: Principal;
  catalog: RoutingCatalog;
}

function validate(input: PreflightInput): void {
  const { endpoint, body } = input;
  if (endpoint.requiredField && body[endpoint.requiredField] === undefined) {
    throw new GatewayError('field_required', { field: endpoint.requiredField });
  }
  endpoint.validateBody(body);
}

/** The error for a model nothing serves: its channels exist but not for this endpoint, or none do. */
function unserved(model: string, context: RouteContext): GatewayError {
  if (context.endpoint.refusalPath && modelHasChannels({ ...context, model }))
    return new GatewayError('endpoint_not_supported', { path: context.endpoint.refusalPath });
  return new GatewayError('no_available_channel', { model, group: context.principal.group });
}

/**
 * The body's `models` (admin-api section 11.3): public model IDs, each allowed by the key's Model
 * Limits. Undefined when the body has none.
 */
function readFallbackModels(body: Record<string, unknown>, principal: Principal): string[] | undefined {
  const { models } = body;
  if (models === undefined || models === null) return undefined;
  if (!Array.isArray(models) || models.some((entry) => typeof entry !== 'string' || entry === ''))
    throw invalidMember('models', 'an array of model names');
  for (const model of models as string[]) {
    if (principal.modelLimits && !principal.modelLimits.has(model))
      throw new GatewayError('model_not_allowed', { model });
  }
  return models as string[];
}

function withFallbacks(
  named: readonly RouteTarget[],
  fallbackModels: readonly string[],
  context: RouteContext,
): RouteTarget[] {
  const targets = [...named];
  for (const model of fallbackModels) {
    if (targets.some((target) => target.model === model)) continue;
    const routed = routeTarget(model, context, true);
    if (routed) targets.push(routed);
  }
  return targets;
}

/** A model as a target: undefined when it has no price or no channel of the key's group for the endpoint. */
function routeTarget(
  model: string,
  context: RouteContext,
  requestFallback: boolean,
): RouteTarget | undefined {
  const price = context.catalog.price(model);
  if (!price) return undefined;
  const candidates = selectCandidates({ ...context, model });
  return candidates.length > 0 ? { model, candidates, price, requestFallback } : undefined;
}

function modelHasChannels(options: {
  principal: Principal;
  catalog: RoutingCatalog;
  model: string;
}): boolean {
  const { principal, catalog, model } = options;
  if (principal.channelPin !== undefined)
    return catalog.channel(principal.channelPin)?.models.includes(model) ?? false;
  return catalog.channelsServing(model, principal.group).length > 0;
}

function selectCandidates(options: {
  endpoint: RelayEndpoint;
  principal: Principal;
  catalog: RoutingCatalog;
  model: string;
}): readonly RoutableChannel[] {
  const { endpoint, principal, catalog, model } = options;
  if (principal.channelPin !== undefined) {
    const pinned = catalog.channel(principal.channelPin);
    return pinned && pinned.models.includes(model) && endpoint.serves(pinned, model) ? [pinned] : [];
  }
  return catalog.channelsServing(model, principal.group).filter((channel) => endpoint.serves(channel, model));
}
