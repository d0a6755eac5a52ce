import { upstreamServes } from '../../relay/operations/json-plan.js';
import type { RelayEndpoint } from '../../relay/relay-endpoint.js';

/**
 * The Realtime API as model selection sees it (admin-api section 14): served by channels whose
 * endpoint types include `realtime` and whose upstream has a realtime WebSocket. The upgrade has no
 * body, so nothing is required of one.
 */
export const realtimeEndpoint: RelayEndpoint = {
  name: 'realtime',
  errorShape: 'openai',
  requiredField: undefined,
  serves: (channel, model) =>
    channel.endpointTypesFor(model).includes('realtime') && upstreamServes(channel, 'openai-realtime', model),
  validateBody: () => undefined,
};
