import type { ChannelHealthReport } from '../routing/channel-health.js';

/**
 * `GET /api/channels/{id}/health` (admin-api section 7): one entry per model of the channel in its
 * order, and one per key by index. Keys are never shown, not even masked: the index names them.
 */
export function serializeChannelHealth(report: ChannelHealthReport) {
  return {
    data: report.models.map(({ model, state, failures, until }) => ({ model, state, failures, until })),
    keys: report.keys.map(({ index, state }) => ({ index, state })),
  };
}
