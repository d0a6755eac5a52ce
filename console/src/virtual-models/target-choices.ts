import type { Channel, Price } from '../api/types';
import { collectModels } from '../models/collect-models';
import type { TargetChoice } from './target-row-fields';

/** The public model IDs the channels serve, alphabetically, each with whether it has a price. */
export function targetChoices({
  channels,
  prices,
}: {
  channels: readonly Channel[];
  prices: readonly Price[];
}): TargetChoice[] {
  return collectModels({ channels, prices })
    .filter((entry) => entry.channels.length > 0)
    .map((entry) => ({ model: entry.model, priced: entry.price !== undefined }));
}
