import { apiRequest } from '../api/api-client';
import type { ListResponse } from '../api/types';
import type { ModelPricing } from './model-pricing';

/** `GET /api/pricing`: public unless the setting `pricing_public` is off (then 401 without a session). */
export async function fetchPricing(): Promise<ModelPricing[]> {
  return (await apiRequest<ListResponse<ModelPricing>>('/pricing')).data;
}
