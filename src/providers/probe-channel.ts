import type { ChannelRecord } from '../store/channels-repository.js';

export interface ProbeResult {
  ok: boolean;
  latencyMs: number;
  error: string | null;
}

/** Sends a one-token request to the channel's upstream (admin-api: `POST /api/channels/{id}/test`). */
export async function probeChannel(channel: ChannelRecord, options: { timeoutMs: number }): Promise<ProbeResult> {
  void channel;
  void options;
  throw new Error('not implemented');
}
