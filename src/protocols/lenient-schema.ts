import { z } from 'zod';

/**
 * Building blocks of the schemas for what upstreams send (STYLE rule 8): a member that is
 * missing or of the wrong type reads as absent, never as a failure of the whole reply.
 */
export function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}

/** An array whose items of the wrong shape read as absent rather than failing the whole array. */
export function lenientArray<T extends z.ZodType>(item: T) {
  return lenient(z.array(item.optional().catch(undefined)));
}
