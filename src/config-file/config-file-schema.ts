import { z } from 'zod';
import { createChannelSchema } from '../admin/channel-schemas.js';
import { createGuardrailSchema, guardrailKindProblem } from '../admin/guardrail-schemas.js';
import { groupNameSchema, putGroupSchema } from '../admin/group-schemas.js';
import { putModelMetadataSchema } from '../admin/model-metadata-schemas.js';
import { putPriceSchema } from '../admin/price-schemas.js';
import { publicModelId } from '../admin/public-model-id.js';
import { checkChannelTransport } from '../admin/validate-channel-transport.js';
import { createVirtualModelSchema } from '../admin/virtual-model-schemas.js';
import { settingsSchema } from '../config/settings-schema.js';
import { providerTypes } from '../providers/registry.js';

/** Each entry once: a second entry of the same name is an error at its place. */
function uniqueBy<Entry>(key: (entry: Entry) => string, member: string) {
  return (entries: readonly Entry[], context: z.RefinementCtx) => {
    const seen = new Set<string>();
    for (const [index, entry] of entries.entries()) {
      const value = key(entry);
      if (seen.has(value))
        context.addIssue({ code: 'custom', path: [index, member], message: `repeats "${value}"` });
      seen.add(value);
    }
  };
}

/** A channel as `POST /api/channels` takes it, with its type's fields checked as the route checks them. */
const channelEntry = createChannelSchema.superRefine((channel, context) => {
  // An unknown type is reported by the schema already.
  if (!providerTypes.includes(channel.type)) return;
  const checked = checkChannelTransport({
    type: channel.type,
    config: channel.config,
    baseUrl: channel.base_url,
    keys: channel.keys,
  });
  if ('problem' in checked)
    context.addIssue({
      code: 'custom',
      path: checked.field
        .split(/[.[\]]+/)
        .filter(Boolean)
        .map(pathSegment),
      message: checked.problem,
    });
});

const guardrailEntry = createGuardrailSchema.superRefine((guardrail, context) => {
  const problem = guardrailKindProblem(guardrail);
  if (problem) context.addIssue({ code: 'custom', path: [problem.field], message: problem.problem });
});

/**
 * The configuration file (admin-api section 13): lists of the objects the management API takes,
 * each with its natural key (a channel's `name`, a price's `model`, ...), the settings, and
 * `prune`. A kind left out is not managed by the file; a kind given as `[]` manages none of it.
 */
export const configFileSchema = z.strictObject({
  channels: z
    .array(channelEntry)
    .superRefine(uniqueBy((channel) => channel.name, 'name'))
    .optional(),
  prices: z
    .array(putPriceSchema.extend({ model: publicModelId }))
    .superRefine(uniqueBy((price) => price.model, 'model'))
    .optional(),
  groups: z
    .array(putGroupSchema.extend({ name: groupNameSchema }))
    .superRefine(uniqueBy((group) => group.name, 'name'))
    .optional(),
  models: z
    .array(putModelMetadataSchema.extend({ model: publicModelId }))
    .superRefine(uniqueBy((model) => model.model, 'model'))
    .optional(),
  virtual_models: z
    .array(createVirtualModelSchema)
    .superRefine(uniqueBy((model) => model.name, 'name'))
    .optional(),
  guardrails: z
    .array(guardrailEntry)
    .superRefine(uniqueBy((guardrail) => guardrail.name, 'name'))
    .optional(),
  settings: settingsSchema.partial().optional(),
  prune: z.boolean().default(false),
});

export type ConfigFile = z.output<typeof configFileSchema>;

function pathSegment(segment: string): string | number {
  return /^\d+$/.test(segment) ? Number(segment) : segment;
}
