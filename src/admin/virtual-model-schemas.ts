import { z } from 'zod';
import { FALLBACK_KINDS } from '../store/virtual-models-repository.js';
import { publicModelId } from './public-model-id.js';

const targetSchema = z.strictObject({
  model: publicModelId,
  priority: z.number().int().min(-1_000_000).max(1_000_000).default(0),
  weight: z.number().int().min(1).max(1_000_000).default(1),
});

const distinct = <T>(values: readonly T[]) => new Set(values).size === values.length;

/** The members of a virtual model a write may set (admin-api section 11.2). */
const virtualModelFields = {
  targets: z
    .array(targetSchema)
    .min(1)
    .max(64)
    .refine((targets) => distinct(targets.map((target) => target.model)), 'must not name a model twice'),
  strategy: z.enum(['priority', 'latency']),
  fallback_on: z.array(z.enum(FALLBACK_KINDS)).refine(distinct, 'must not repeat a kind'),
  sticky: z.boolean(),
};

/** Body of `POST /api/virtual-models`. */
export const createVirtualModelSchema = z.strictObject({
  name: publicModelId,
  targets: virtualModelFields.targets,
  strategy: virtualModelFields.strategy.default('priority'),
  fallback_on: virtualModelFields.fallback_on.default([...FALLBACK_KINDS]),
  sticky: virtualModelFields.sticky.default(true),
});

/** Body of `PATCH /api/virtual-models/{name}`: what it leaves out keeps its value. */
export const updateVirtualModelSchema = z.strictObject({
  targets: virtualModelFields.targets.optional(),
  strategy: virtualModelFields.strategy.optional(),
  fallback_on: virtualModelFields.fallback_on.optional(),
  sticky: virtualModelFields.sticky.optional(),
});
