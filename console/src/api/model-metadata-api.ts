import { apiRequest } from './api-client';
import type { ListResponse, ModelMetadata, ModelMetadataFields } from './types';

/** Model ids may hold `/`: encoded in the path, as admin-api section 2 asks. */
function modelPath(model: string): string {
  return `/models/${encodeURIComponent(model)}`;
}

/** `GET /api/models`: every model with metadata (admin-api section 11.1). */
export async function listModelMetadata(): Promise<ModelMetadata[]> {
  return (await apiRequest<ListResponse<ModelMetadata>>('/models', { query: { limit: 1000 } })).data;
}

/** Creates or replaces what is known of a model. */
export function putModelMetadata(model: string, fields: ModelMetadataFields): Promise<ModelMetadata> {
  return apiRequest<ModelMetadata>(modelPath(model), { method: 'PUT', body: fields });
}

/** Forgets everything known of a model: it is unknown again, which never excludes it. */
export function deleteModelMetadata(model: string): Promise<ModelMetadata> {
  return apiRequest<ModelMetadata>(modelPath(model), { method: 'DELETE' });
}
