import type { Channel } from '../api/types';
import { channelTypeSpec } from './channel-types';

/** The origin the gateway uses when `base_url` is empty, with the channel's region filled in. */
export function defaultBaseUrl(type: string, config: Readonly<Record<string, unknown>>): string | null {
  const spec = channelTypeSpec(type);
  if (spec.defaultBaseUrl === null) return null;
  const regionField = spec.config.find((field) => field.name === 'region');
  const configured = config['region'];
  const region = typeof configured === 'string' && configured !== '' ? configured : regionField?.defaultValue;
  // Vertex's global location has no regional host.
  if (type === 'vertex' && region === 'global') return 'https://aiplatform.googleapis.com';
  return region === undefined ? spec.defaultBaseUrl : spec.defaultBaseUrl.replace('{region}', region);
}

/** Whether a channel read from the API shows the default origin rather than one set for it. */
export function isDefaultBaseUrl(channel: Pick<Channel, 'type' | 'base_url' | 'config'>): boolean {
  if (channel.base_url === null) return true;
  const fallback = defaultBaseUrl(channel.type, channel.config);
  return fallback !== null && fallback.replace(/\/+$/, '') === channel.base_url.replace(/\/+$/, '');
}
