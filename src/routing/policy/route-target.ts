import type { PriceRecord } from '../../store/prices-repository.js';
import type { RoutableChannel } from '../routing-catalog.js';

/** A public model that may serve a request, with its channels for the key and its price. */
export interface RouteTarget {
  model: string;
  candidates: readonly RoutableChannel[];
  price: PriceRecord;
  /** Named by the body's `models`, not by `model` or a virtual model. */
  requestFallback: boolean;
}
