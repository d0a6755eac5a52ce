import { z } from 'zod';

/** The column is a 32-bit integer on PostgreSQL; no gateway runs anywhere near that many requests. */
const MAX_CONCURRENCY = 2_147_483_647;

/** `max_concurrency` of keys, users and groups (admin-api section 10): null for no cap. */
export const maxConcurrencySchema = z.number().int().min(1).max(MAX_CONCURRENCY).nullable();
