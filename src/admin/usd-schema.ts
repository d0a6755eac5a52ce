import { z } from 'zod';
import { MAX_USD, usdToNano } from '../billing/money.js';

/** A USD amount on the wire, held as nano-USD; beyond MAX_USD integers of nano-USD lose exactness. */
export const usdAsNano = z.number().min(-MAX_USD).max(MAX_USD).transform(usdToNano);

export const nonNegativeUsdAsNano = z.number().min(0).max(MAX_USD).transform(usdToNano);
