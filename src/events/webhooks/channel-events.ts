import type { ChannelRecord, ChannelStatus } from '../../store/channels-repository.js';
import { webhookEvent, type WebhookEvent } from './webhook-event.js';

/** `channel.auto_disabled` or `channel.recovered` (admin-api section 10.1): a status changed by health. */
export function channelStatusEvent(channel: ChannelRecord, to: ChannelStatus, reason: string): WebhookEvent {
  const type = to === 'auto_disabled' ? 'channel.auto_disabled' : 'channel.recovered';
  return webhookEvent(
    type,
    { channel_id: channel.id, name: channel.name, reason },
    { nowS: Math.floor(Date.now() / 1000) },
  );
}
