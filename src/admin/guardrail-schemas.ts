import safeRegex from 'safe-regex2';
import { z } from 'zod';
import { httpUrlSchema } from '../config/http-url-schema.js';
import { GUARDRAIL_ACTIONS, GUARDRAIL_FAILURES, GUARDRAIL_KINDS } from '../store/guardrails-repository.js';

/**
 * A guardrail's regular expression: it must compile, and `safe-regex2` must find no star height
 * above one (no nested quantifier such as `(a+)+`), the shape behind catastrophic backtracking, so
 * an admin's pattern cannot freeze the gateway on a crafted request.
 */
const patternSchema = z
  .string()
  .min(1)
  .max(2_000)
  .superRefine((pattern, context) => {
    try {
      new RegExp(pattern, 'u');
    } catch (error) {
      context.addIssue({
        code: 'custom',
        message: `is not a valid regular expression (${(error as Error).message})`,
      });
      return;
    }
    if (!safeRegex(pattern))
      context.addIssue({
        code: 'custom',
        message: 'may backtrack catastrophically (a quantifier inside a quantified group); rewrite it',
      });
  });

const guardrailMembers = {
  name: z.string().trim().min(1).max(128),
  kind: z.enum(GUARDRAIL_KINDS),
  pattern: patternSchema.nullable(),
  url: httpUrlSchema.max(2_048).nullable(),
  action: z.enum(GUARDRAIL_ACTIONS),
  fail: z.enum(GUARDRAIL_FAILURES),
  timeout_ms: z.number().int().min(1).max(60_000),
  groups: z.array(z.string().min(1).max(64)).max(1_000).nullable(),
};

/** Body of `POST /api/guardrails` (admin-api section 12). */
export const createGuardrailSchema = z.strictObject({
  ...guardrailMembers,
  pattern: guardrailMembers.pattern.default(null),
  url: guardrailMembers.url.default(null),
  action: guardrailMembers.action.default('block'),
  fail: guardrailMembers.fail.default('closed'),
  timeout_ms: guardrailMembers.timeout_ms.default(1_000),
  groups: guardrailMembers.groups.default(null),
});

/** Body of `PATCH /api/guardrails/{id}`: any member but the id. */
export const updateGuardrailSchema = z.strictObject(guardrailMembers).partial();

/** A guardrail needs what its kind reads: a `pattern` for `regex`, a `url` for `webhook`. */
export function guardrailKindProblem(guardrail: {
  kind: string;
  pattern: string | null;
  url: string | null;
}): { field: string; problem: string } | undefined {
  if (guardrail.kind === 'regex' && guardrail.pattern === null)
    return { field: 'pattern', problem: 'is required for a regex guardrail' };
  if (guardrail.kind === 'webhook' && guardrail.url === null)
    return { field: 'url', problem: 'is required for a webhook guardrail' };
  return undefined;
}
