import type { Principal } from '../auth/principal.js';
import { GatewayError } from '../errors/gateway-error.js';
import type { GatewayServices } from '../services.js';
import { preflight } from './preflight.js';
import type { RelayEndpoint } from './relay-endpoint.js';

export interface RelayRequest {
  endpoint: RelayEndpoint;
  principal: Principal;
  requestedModel: unknown;
  body: Record<string, unknown>;
  onModelSelected(): void;
}

/**
 * One relayed request from checks to reply. Until a channel type can carry the request upstream,
 * a request that passes every check still has no channel that can take it.
 */
export async function handleRelay(services: GatewayServices, request: RelayRequest): Promise<never> {
  const plan = preflight({ ...request, catalog: services.catalog });
  throw new GatewayError('no_available_channel', { model: plan.model, group: request.principal.group });
}
