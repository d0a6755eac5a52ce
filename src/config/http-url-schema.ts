import { z } from 'zod';

/** An absolute `http:` or `https:` URL, the only kinds the gateway calls. */
export const httpUrlSchema = z.string().refine((text) => {
  if (!URL.canParse(text)) return false;
  const { protocol } = new URL(text);
  return protocol === 'http:' || protocol === 'https:';
}, 'must be an http or https URL');
