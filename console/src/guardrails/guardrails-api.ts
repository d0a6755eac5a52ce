import { apiRequest } from '../api/api-client';
import type { ListResponse } from '../api/types';
import type { Guardrail, GuardrailChanges, NewGuardrailFields } from './guardrail';

/** The cache key of the guardrail list, reloaded after every change. */
export const guardrailsQueryKey = ['guardrails'] as const;

function guardrailPath(id: number): string {
  return `/guardrails/${id}`;
}

/** `GET /api/guardrails` (admin-api section 12). */
export async function listGuardrails(): Promise<Guardrail[]> {
  return (await apiRequest<ListResponse<Guardrail>>('/guardrails')).data;
}

/** `POST /api/guardrails`: 201 with the stored guardrail. */
export function createGuardrail(fields: NewGuardrailFields): Promise<Guardrail> {
  return apiRequest<Guardrail>('/guardrails', { method: 'POST', body: fields });
}

/** `PATCH /api/guardrails/{id}`: only the members given change. */
export function updateGuardrail(id: number, changes: GuardrailChanges): Promise<Guardrail> {
  return apiRequest<Guardrail>(guardrailPath(id), { method: 'PATCH', body: changes });
}

/** `DELETE /api/guardrails/{id}`: 204, no body. */
export async function deleteGuardrail(id: number): Promise<void> {
  await apiRequest<undefined>(guardrailPath(id), { method: 'DELETE' });
}
