import type { z } from 'zod';
import { hashKey } from '../auth/hash-key.js';
import { generateKey, maskKey, stripKeyPrefix } from '../auth/key-format.js';
import type { GatewayServices } from '../services.js';
import type { KeyChanges, KeyRecord } from '../store/keys-repository.js';
import type { createKeySchema, updateKeySchema } from './key-schemas.js';

type KeyAttributes = Omit<z.output<typeof createKeySchema>, 'user_id'>;

/** Creates a key of the user; the full key is in the result, the only time it exists outside the client. */
export async function createKeyFor(
  services: GatewayServices,
  userId: number,
  attributes: KeyAttributes,
): Promise<{ record: KeyRecord; fullKey: string }> {
  const fullKey = generateKey();
  const record = await services.repositories.keys.create({
    userId,
    name: attributes.name,
    keyHash: hashKey(stripKeyPrefix(fullKey)),
    keyHint: maskKey(fullKey),
    status: attributes.status,
    expiresAt: attributes.expires_at,
    unlimitedQuota: attributes.unlimited_quota,
    quota: attributes.quota,
    modelLimits: attributes.model_limits,
    ipAllowList: attributes.ip_allow_list,
    group: attributes.group,
    rpm: attributes.rpm,
    tpm: attributes.tpm,
    budgets: attributes.budgets,
    maxConcurrency: attributes.max_concurrency,
    logBodies: attributes.log_bodies,
  });
  // Unknown hashes are cached as misses, so even a brand-new key needs the cache emptied.
  await services.changes.publish('keys');
  return { record, fullKey };
}

/** The repository's changes from a validated `PATCH` body. */
export function keyChangesFrom(body: z.output<typeof updateKeySchema>): KeyChanges {
  return {
    name: body.name,
    status: body.status,
    expiresAt: body.expires_at,
    unlimitedQuota: body.unlimited_quota,
    quota: body.quota,
    modelLimits: body.model_limits,
    ipAllowList: body.ip_allow_list,
    group: body.group,
    rpm: body.rpm,
    tpm: body.tpm,
    budgets: body.budgets,
    maxConcurrency: body.max_concurrency,
    logBodies: body.log_bodies,
  };
}
