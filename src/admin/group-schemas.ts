import { z } from 'zod';
import { budgetsSchema } from './budget-schema.js';
import { maxConcurrencySchema } from './max-concurrency-schema.js';

/**
 * Body of `PUT /api/groups/{name}`. Every member is optional: a member left out keeps its stored
 * value (or its default, for a new group).
 */
export const putGroupSchema = z.strictObject({
  ratio: z.number().min(0).max(1_000_000).optional(),
  budgets: budgetsSchema.optional(),
  max_concurrency: maxConcurrencySchema.optional(),
  log_bodies: z.boolean().optional(),
});

/** A group's name, as the path of `PUT /api/groups/{name}` takes it. */
export const groupNameSchema = z.string().min(1).max(64);
