import { apiRequest } from './api-client';
import type { Group, GroupFields, ListResponse } from './types';

export async function listGroups(): Promise<Group[]> {
  return (await apiRequest<ListResponse<Group>>('/groups', { query: { limit: 1000 } })).data;
}

/** Creates or changes a group: its price ratio and spend limits. */
export function putGroup(name: string, fields: GroupFields): Promise<Group> {
  return apiRequest<Group>(`/groups/${encodeURIComponent(name)}`, { method: 'PUT', body: fields });
}
