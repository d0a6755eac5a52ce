import { apiRequest } from './api-client';
import type { Settings } from './types';

export function fetchSettings(): Promise<Settings> {
  return apiRequest<Settings>('/settings');
}

export function updateSettings(changes: Settings): Promise<Settings> {
  return apiRequest<Settings>('/settings', { method: 'PATCH', body: changes });
}
