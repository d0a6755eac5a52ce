import type { Channel, ModelMetadata, Price } from '../api/types';
import { deriveEndpointTypes } from '../channels/derive-endpoint-types';

export interface ModelEntry {
  model: string;
  channels: Pick<Channel, 'id' | 'name' | 'status'>[];
  /** Union over the channels serving it, in first-seen order. */
  endpointTypes: string[];
  price: Price | undefined;
  /** Context window, output cap and capabilities (admin-api section 11.1); undefined: nothing known. */
  metadata: ModelMetadata | undefined;
}

/**
 * Every model any channel serves or any price or metadata names, alphabetically, with its price,
 * metadata and endpoints.
 */
export function collectModels({
  channels,
  prices,
  metadata = [],
}: {
  channels: readonly Channel[];
  prices: readonly Price[];
  metadata?: readonly ModelMetadata[];
}): ModelEntry[] {
  const entries = new Map<string, ModelEntry>();
  const entryOf = (model: string) => {
    let entry = entries.get(model);
    if (!entry) {
      entry = { model, channels: [], endpointTypes: [], price: undefined, metadata: undefined };
      entries.set(model, entry);
    }
    return entry;
  };
  for (const channel of channels) {
    for (const model of channel.models) {
      const entry = entryOf(model);
      entry.channels.push({ id: channel.id, name: channel.name, status: channel.status });
      for (const endpoint of deriveEndpointTypes(channel, model)) {
        if (!entry.endpointTypes.includes(endpoint)) entry.endpointTypes.push(endpoint);
      }
    }
  }
  for (const price of prices) entryOf(price.model).price = price;
  for (const known of metadata) entryOf(known.model).metadata = known;
  return [...entries.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}
