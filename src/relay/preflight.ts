import type { Principal } from '../auth/principal.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { PriceRecord } from '../store/prices-repository.js';
import { orderCandidates } from '../routing/order-candidates.js';
import type { RoutableChannel, RoutingCatalog } from '../routing/routing-catalog.js';
import type { VirtualModelRecord } from '../store/virtual-models-repository.js';
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
  /** The public model that serves the request: the one named, or a virtual model's target. */
  model: string;
  effort: ReasoningEffort | undefined;
  candidates: readonly RoutableChannel[];
  price: PriceRecord;
  groupRatio: number;
}

/**
 * Every check that needs no upstream, in the order the spec implies: model named, modifier valid,
 * model allowed for the key, a channel serves it, the body has its required fields, the model is priced.
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

  // A channel added later that serves the same name wins, as it does in the model lists.
  const virtual = catalog.virtualModel(model);
  const served =
    virtual && !catalog.servesModel(model)
      ? servedTarget(virtual, { endpoint, principal, catalog })
      : undefined;
  const servedModel = served?.model ?? model;
  const candidates = served?.candidates ?? selectCandidates({ endpoint, principal, catalog, model });
  if (candidates.length === 0) {
    if (endpoint.refusalPath && modelHasChannels({ principal, catalog, model }))
      throw new GatewayError('endpoint_not_supported', { path: endpoint.refusalPath });
    throw new GatewayError('no_available_channel', { model, group: principal.group });
  }
  input.onModelSelected();

  if (endpoint.requiredField && body[endpoint.requiredField] === undefined) {
    throw new GatewayError('field_required', { field: endpoint.requiredField });
  }
  endpoint.validateBody(body);
  const price = catalog.price(servedModel);
  if (!price) throw new GatewayError('model_price_missing', { model: servedModel });
  return {
    requestedModel,
    namedModel: model,
    model: servedModel,
    effort,
    candidates,
    price,
    groupRatio: catalog.groupRatio(principal.group),
  };
}

/**
 * The target of a virtual model that serves the request (admin-api section 11.2): the first, in
 * the strategy's order, that is priced and has a channel of the key's group for the endpoint;
 * undefined when none is.
 */
function servedTarget(
  virtual: VirtualModelRecord,
  options: { endpoint: RelayEndpoint; principal: Principal; catalog: RoutingCatalog },
): { model: string; candidates: readonly RoutableChannel[] } | undefined {
  for (const { model } of orderCandidates(virtual.targets)) {
    if (!options.catalog.price(model)) continue;
    const candidates = selectCandidates({ ...options, model });
    if (candidates.length > 0) return { model, candidates };
  }
  return undefined;
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
