import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  CHANNEL_TYPES,
  CHANNEL_TYPE_SPECS,
  ENDPOINT_TYPES,
} from '../../console/src/channels/channel-types.js';
import { endpointTypes } from '../../src/routing/endpoint-type.js';
import { findProvider, providerTypes } from '../../src/providers/registry.js';

/**
 * The console keeps its own description of the channel types (the management API lists none);
 * these checks hold it to the gateway's provider registry, so the two cannot drift apart.
 */
const MODELS = [
  'gpt-4o',
  'claude-sonnet-4-5',
  'gemini-2.5-pro',
  'imagen-4.0-generate-001',
  'text-embedding-3-small',
];

describe('the console channel types agree with the provider registry', () => {
  it('names the same types in the same order', () => {
    expect(CHANNEL_TYPES).toEqual(providerTypes);
  });

  it('offers every endpoint type a channel may declare, and no other', () => {
    expect([...ENDPOINT_TYPES].sort()).toEqual([...endpointTypes].sort());
  });

  describe.each(CHANNEL_TYPES)('%s', (type) => {
    const spec = CHANNEL_TYPE_SPECS[type];
    const descriptor = findProvider(type)!;
    const schema = descriptor.configSchema as unknown as z.ZodObject;
    const required = Object.fromEntries(
      spec.config.filter((field) => field.required).map((field) => [field.name, field.placeholder]),
    );

    it('has the same config members, required and defaults', () => {
      expect(spec.config.map((field) => field.name).sort()).toEqual(Object.keys(schema.shape).sort());
      expect(descriptor.configSchema.safeParse({}).success).toBe(
        spec.config.every((field) => !field.required),
      );
      const filled = descriptor.configSchema.parse(required);
      for (const field of spec.config)
        if (!field.required) expect(filled[field.name]).toBe(field.defaultValue);
    });

    it('has the same default origin and key rule', () => {
      const origin = descriptor.defaultBaseUrl(descriptor.configSchema.parse(required));
      const expected = spec.defaultBaseUrl?.replace(
        '{region}',
        String(required.region ?? spec.config.find((field) => field.name === 'region')?.defaultValue),
      );
      expect(origin).toBe(expected ?? undefined);
      expect(descriptor.keyOptional ?? false).toBe(spec.keyOptional);
    });

    it.each(MODELS)('derives the same endpoint types for %s', (model) => {
      expect(spec.endpointTypes(model)).toEqual(descriptor.endpointTypes(model));
    });
  });
});
