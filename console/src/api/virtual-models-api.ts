import { apiRequest } from './api-client';
import type { ListResponse, VirtualModel, VirtualModelFields } from './types';

/** A virtual model's name is a public model ID and may hold `/`: encoded in the path. */
function virtualModelPath(name: string): string {
  return `/virtual-models/${encodeURIComponent(name)}`;
}

/** `GET /api/virtual-models` (admin-api section 11.2). */
export async function listVirtualModels(): Promise<VirtualModel[]> {
  return (await apiRequest<ListResponse<VirtualModel>>('/virtual-models', { query: { limit: 1000 } })).data;
}

/** `POST /api/virtual-models`: 201 with the stored virtual model. */
export function createVirtualModel(fields: VirtualModelFields): Promise<VirtualModel> {
  return apiRequest<VirtualModel>('/virtual-models', { method: 'POST', body: fields });
}

/** `PATCH /api/virtual-models/{name}`: only the members given change. */
export function updateVirtualModel(
  name: string,
  changes: Partial<Omit<VirtualModelFields, 'name'>>,
): Promise<VirtualModel> {
  return apiRequest<VirtualModel>(virtualModelPath(name), { method: 'PATCH', body: changes });
}

export function deleteVirtualModel(name: string): Promise<VirtualModel> {
  return apiRequest<VirtualModel>(virtualModelPath(name), { method: 'DELETE' });
}
