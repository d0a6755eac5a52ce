import { apiRequest } from '../api/api-client';
import { ApiError } from '../api/api-error';
import type { PublicOptions } from './public-options';

/**
 * `GET /api/auth/options` (src/admin/sign-in-options.ts), answered without credentials. Null from
 * a gateway without it (404): the pages then offer registration and top-up, and the gateway's
 * refusal explains itself.
 */
export async function fetchPublicOptions(): Promise<PublicOptions | null> {
  try {
    return await apiRequest<PublicOptions>('/auth/options');
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}
