import { findProvider } from '../providers/registry.js';
import type { ChannelRecord } from '../store/channels-repository.js';
import { maskSecret } from './mask-secret.js';

/** A channel as the management API shows it: upstream keys masked, the default origin filled in. */
export function serializeChannel(channel: ChannelRecord) {
  return {
    id: channel.id,
    name: channel.name,
    type: channel.type,
    base_url: channel.baseUrl ?? findProvider(channel.type)?.defaultBaseUrl(channel.config) ?? null,
    keys: channel.keys.map(maskSecret),
    models: channel.models,
    model_mapping: channel.modelMapping,
    groups: channel.groups,
    priority: channel.priority,
    weight: channel.weight,
    endpoints: channel.endpoints,
    status: channel.status,
    config: channel.config,
    created_at: channel.createdAt,
  };
}
