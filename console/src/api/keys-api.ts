import { apiRequest } from './api-client';
import type { ApiKey, KeyFields, ListResponse } from './types';

/** Admins manage every key under `/api/keys`; a user manages their own under `/api/me/keys`. */
export type KeyScope = 'admin' | 'own';

function keysPath(scope: KeyScope): string {
  return scope === 'admin' ? '/keys' : '/me/keys';
}

export async function listKeys(scope: KeyScope, userId?: number): Promise<ApiKey[]> {
  const query = { limit: 1000, user_id: scope === 'admin' ? userId : undefined };
  return (await apiRequest<ListResponse<ApiKey>>(keysPath(scope), { query })).data;
}

export function createKey(scope: KeyScope, fields: KeyFields & { user_id?: number }): Promise<ApiKey> {
  return apiRequest<ApiKey>(keysPath(scope), { method: 'POST', body: fields });
}

export function updateKey(scope: KeyScope, id: number, changes: Partial<KeyFields>): Promise<ApiKey> {
  return apiRequest<ApiKey>(`${keysPath(scope)}/${id}`, { method: 'PATCH', body: changes });
}

export function deleteKey(scope: KeyScope, id: number): Promise<ApiKey> {
  return apiRequest<ApiKey>(`${keysPath(scope)}/${id}`, { method: 'DELETE' });
}
