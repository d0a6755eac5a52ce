import { apiRequest } from './api-client';
import type {
  Channel,
  ChannelFields,
  ChannelHealth,
  ChannelStats,
  ChannelTestResult,
  ListResponse,
} from './types';

export async function listChannels(): Promise<Channel[]> {
  return (await apiRequest<ListResponse<Channel>>('/channels', { query: { limit: 1000 } })).data;
}

export function createChannel(fields: ChannelFields): Promise<Channel> {
  return apiRequest<Channel>('/channels', { method: 'POST', body: fields });
}

export function updateChannel(id: number, changes: Partial<ChannelFields>): Promise<Channel> {
  return apiRequest<Channel>(`/channels/${id}`, { method: 'PATCH', body: changes });
}

export function deleteChannel(id: number): Promise<Channel> {
  return apiRequest<Channel>(`/channels/${id}`, { method: 'DELETE' });
}

export function testChannel(id: number): Promise<ChannelTestResult> {
  return apiRequest<ChannelTestResult>(`/channels/${id}/test`, { method: 'POST' });
}

export function fetchChannelHealth(id: number): Promise<ChannelHealth> {
  return apiRequest<ChannelHealth>(`/channels/${id}/health`);
}

/** Success rate and latency of the channel, in all and per model (default: the last 24 hours). */
export function fetchChannelStats(id: number, window?: { from: number; to: number }): Promise<ChannelStats> {
  return apiRequest<ChannelStats>(`/channels/${id}/stats`, { query: { ...window } });
}
