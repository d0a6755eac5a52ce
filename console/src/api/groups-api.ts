import { apiRequest } from './api-client';
import type { Group, ListResponse } from './types';

export async function listGroups(): Promise<Group[]> {
  return (await apiRequest<ListResponse<Group>>('/groups', { query: { limit: 1000 } })).data;
}

export function putGroup(name: string, ratio: number): Promise<Group> {
  return apiRequest<Group>(`/groups/${encodeURIComponent(name)}`, { method: 'PUT', body: { ratio } });
}
