import { apiRequest } from './api-client';
import type { ListResponse, User, UserFields } from './types';

export async function listUsers(): Promise<User[]> {
  return (await apiRequest<ListResponse<User>>('/users', { query: { limit: 1000 } })).data;
}

export function createUser(fields: UserFields): Promise<User> {
  return apiRequest<User>('/users', { method: 'POST', body: fields });
}

export function updateUser(id: number, changes: Partial<UserFields>): Promise<User> {
  return apiRequest<User>(`/users/${id}`, { method: 'PATCH', body: changes });
}

export function deleteUser(id: number): Promise<User> {
  return apiRequest<User>(`/users/${id}`, { method: 'DELETE' });
}

export function topUpUser(id: number, amount: number): Promise<User> {
  return apiRequest<User>(`/users/${id}/topup`, { method: 'POST', body: { amount } });
}
