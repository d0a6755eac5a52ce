import { z } from 'zod';

/** `@` separates a model from its modifier (admin-api section 4), so a public model id cannot hold one. */
export function publicModelIdProblem(model: string): string | undefined {
  if (model === '') return 'must not be empty';
  if (model.length > 256) return 'must be at most 256 characters';
  if (model.includes('@')) return 'must not contain "@", which separates a model from its modifier';
  return undefined;
}

export const publicModelId = z.string().superRefine((model, context) => {
  const problem = publicModelIdProblem(model);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});
