import type { Channel, Price } from '../api/types';
import { deriveEndpointTypes } from '../channels/derive-endpoint-types';

export interface ModelEntry {
  model: string;
  channels: Pick<Channel, 'id' | 'name' | 'status'>[];
  /** Union over the channels serving it, in first-seen order. */
  endpointTypes: string[];
  price: Price | undefined;
}

/** Every model any channel serves or any price names, alphabetically, with its price and endpoints. */
export function collectModels(channels: readonly Channel[], prices: readonly Price[]): ModelEntry[] {
  const entries = new Map<string, ModelEntry>();
  const entryOf = (model: string) => {
    let entry = entries.get(model);
    if (!entry) {
      entry = { model, channels: [], endpointTypes: [], price: undefined };
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
  return [...entries.values()].sort((a, b) => (a.model < b.model ? -1 : a.model > b.model ? 1 : 0));
}
