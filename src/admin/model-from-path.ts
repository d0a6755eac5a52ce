import { invalidField } from './admin-error.js';
import { publicModelIdProblem } from './public-model-id.js';

/**
 * The public model ID that is the rest of the path (`/api/prices/*`, `/api/models/*`), so ids
 * holding `/` work whether the client encodes it (`meta%2Fllama-3`) or not.
 */
export function modelFromPath(params: unknown): string {
  const model = String((params as Record<string, unknown>)['*'] ?? '');
  const problem = publicModelIdProblem(model);
  if (problem) throw invalidField('model', problem);
  return model;
}
