import { z } from 'zod';
import { httpUrlSchema } from '../config/http-url-schema.js';
import { providerTypes } from '../providers/registry.js';
import { isEndpointType } from '../routing/endpoint-type.js';
import { publicModelId } from './public-model-id.js';

const nonEmptyText = z.string().min(1).max(1024);

const channelFields = {
  name: z.string().min(1).max(128),
  type: z
    .string()
    .refine((type) => providerTypes.includes(type), `must be one of ${providerTypes.join(', ')}`),
  base_url: httpUrlSchema.nullable(),
  // At least one unless the type runs without a key (validate-channel-transport.ts).
  keys: z.array(z.string().min(1).max(16384)),
  models: z.array(publicModelId),
  // Upstream ids may hold '@' (Vertex AI names versions `model@date`); only the public side may not.
  model_mapping: z.record(publicModelId, nonEmptyText),
  groups: z.array(z.string().min(1).max(64)).min(1),
  priority: z.number().int(),
  weight: z.number().int().min(0),
  endpoints: z.array(z.string().refine(isEndpointType, 'is not a known endpoint type')).nullable(),
  status: z.enum(['enabled', 'disabled', 'auto_disabled']),
  // Checked against the type's own schema once the type is known (validate-channel-config.ts).
  config: z.record(z.string(), z.unknown()),
};

export const CHANNEL_READ_ONLY_FIELDS = ['id', 'created_at'] as const;

export const createChannelSchema = z.strictObject({
  ...channelFields,
  base_url: channelFields.base_url.default(null),
  // Optional for types that run without a key (admin-api section 5); the others need one.
  keys: channelFields.keys.default([]),
  model_mapping: channelFields.model_mapping.default({}),
  groups: channelFields.groups.default(['default']),
  priority: channelFields.priority.default(0),
  weight: channelFields.weight.default(1),
  endpoints: channelFields.endpoints.default(null),
  status: channelFields.status.default('enabled'),
  config: channelFields.config.default({}),
});

/** Built without defaults: zod applies a field's default even inside `.partial()`. */
export const updateChannelSchema = z.strictObject(channelFields).partial();
