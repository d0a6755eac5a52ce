import { apiRequest } from './api-client';
import type { ConfigFile } from './types';

/** `GET /api/config-file` (admin only): the file that manages entities, and the settings it declares. */
export function fetchConfigFile(): Promise<ConfigFile> {
  return apiRequest<ConfigFile>('/config-file');
}
