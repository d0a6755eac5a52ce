import { apiRequest } from './api-client';
import type { ListResponse, Price, PriceFields } from './types';

export async function listPrices(): Promise<Price[]> {
  return (await apiRequest<ListResponse<Price>>('/prices', { query: { limit: 1000 } })).data;
}

/** Model ids may hold `/`: encoded, as admin-api section 2 asks. */
export function putPrice(model: string, fields: PriceFields): Promise<Price> {
  return apiRequest<Price>(`/prices/${encodeURIComponent(model)}`, { method: 'PUT', body: fields });
}

export function deletePrice(model: string): Promise<Price> {
  return apiRequest<Price>(`/prices/${encodeURIComponent(model)}`, { method: 'DELETE' });
}
