import type { ChangeFeed, ChangeTopic } from '../events/change-feed.js';
import { findProvider } from '../providers/registry.js';
import type { ChannelRecord, ChannelsRepository } from '../store/channels-repository.js';
import type { GroupRecord, GroupsRepository } from '../store/groups-repository.js';
import type { PriceRecord, PricesRepository } from '../store/prices-repository.js';
import type { ModelMetadataRecord, ModelMetadataRepository } from '../store/model-metadata-repository.js';
import type { VirtualModelRecord, VirtualModelsRepository } from '../store/virtual-models-repository.js';
import type { EndpointType } from './endpoint-type.js';
import { mapUpstreamModel } from '../providers/map-upstream-model.js';

function toRoutableChannel(channel: ChannelRecord): RoutableChannel {
  const declared = channel.endpoints as EndpointType[] | null;
  const provider = findProvider(channel.type);
  const derive = (model: string): readonly EndpointType[] =>
    declared ?? provider?.endpointTypes(mapUpstreamModel(channel, model)) ?? [];
  // Known once per snapshot for the channel's own models: routing asks on every request.
  const byModel = new Map(channel.models.map((model) => [model, derive(model)]));
  const endpointTypesFor = (model: string) => byModel.get(model) ?? derive(model);
  const endpointTypes = declared ?? [...new Set([...byModel.values()].flat())];
  // A keyless channel of a type that runs without a key (a local server) calls with the empty key.
  const keys = channel.keys.length === 0 && provider?.keyOptional ? [''] : channel.keys;
  return { ...channel, keys, endpointTypes, endpointTypesFor };
}

export interface RoutableChannel extends ChannelRecord {
  /** What the channel serves for any of its models: its `endpoints`, else every type derived for them. */
  endpointTypes: readonly EndpointType[];
  /** What the channel serves for one public model: its `endpoints`, else the type's for that model. */
  endpointTypesFor(model: string): readonly EndpointType[];
}

interface Snapshot {
  channels: RoutableChannel[];
  /** group -> public model id -> enabled channels, highest priority first */
  serving: Map<string, Map<string, RoutableChannel[]>>;
  prices: Map<string, PriceRecord>;
  groupRatios: Map<string, number>;
  /** Groups with budgets or a concurrency cap (admin-api section 10). */
  limitedGroups: Map<string, GroupRecord>;
  /** Groups whose keys' bodies are stored (admin-api section 12). */
  bodyLoggingGroups: Set<string>;
  /** What is known of each model (admin-api section 11.1). */
  modelMetadata: Map<string, ModelMetadataRecord>;
  /** Public names served by one of several models (admin-api section 11.2). */
  virtualModels: Map<string, VirtualModelRecord>;
  /** Every model some channel serves, whatever the channel's status or group. */
  servedModels: Set<string>;
}

interface CatalogRepositories {
  channels: ChannelsRepository;
  prices: PricesRepository;
  groups: GroupsRepository;
  modelMetadata: ModelMetadataRepository;
  virtualModels: VirtualModelsRepository;
}

const CATALOG_TOPICS = new Set<ChangeTopic>(['channels', 'prices', 'groups', 'models']);

/**
 * Channels, prices, group ratios, model metadata and virtual models held in memory for the hot path, rebuilt whenever
 * the management API changes one of them.
 */
export class RoutingCatalog {
  private snapshot: Snapshot = {
    channels: [],
    serving: new Map(),
    prices: new Map(),
    groupRatios: new Map(),
    limitedGroups: new Map(),
    bodyLoggingGroups: new Set(),
    modelMetadata: new Map(),
    virtualModels: new Map(),
    servedModels: new Set(),
  };
  private reloading: Promise<void> | undefined;
  private snapshotGeneration = 0;

  private constructor(private readonly repositories: CatalogRepositories) {}

  static async load(options: {
    repositories: CatalogRepositories;
    changes: ChangeFeed;
  }): Promise<RoutingCatalog> {
    const catalog = new RoutingCatalog(options.repositories);
    await catalog.reload();
    options.changes.subscribe((topic) => {
      if (CATALOG_TOPICS.has(topic)) return catalog.reload();
    });
    return catalog;
  }

  /** Resolves once every change announced so far is visible. */
  async reload(): Promise<void> {
    const previous = this.reloading;
    const next = (async () => {
      await previous?.catch(() => undefined);
      const [channels, prices, groups, modelMetadata, virtualModels] = await Promise.all([
        this.repositories.channels.all(),
        this.repositories.prices.all(),
        this.repositories.groups.all(),
        this.repositories.modelMetadata.all(),
        this.repositories.virtualModels.all(),
      ]);
      this.snapshot = buildSnapshot(channels, prices, groups, modelMetadata, virtualModels);
      this.snapshotGeneration += 1;
    })();
    this.reloading = next;
    await next;
  }

  /** Grows with every rebuild: what is derived from the catalog is current while this is unchanged. */
  get generation(): number {
    return this.snapshotGeneration;
  }

  /** Enabled channels of the group serving the model, highest priority first. */
  channelsServing(model: string, group: string): readonly RoutableChannel[] {
    return this.snapshot.serving.get(group)?.get(model) ?? [];
  }

  modelsOfGroup(group: string): ReadonlyMap<string, RoutableChannel[]> {
    return this.snapshot.serving.get(group) ?? new Map();
  }

  price(model: string): PriceRecord | undefined {
    return this.snapshot.prices.get(model);
  }

  /** What is known of the model; undefined when nothing is. */
  modelMetadata(model: string): ModelMetadataRecord | undefined {
    return this.snapshot.modelMetadata.get(model);
  }

  /** The virtual model of that name; undefined when there is none. */
  virtualModel(name: string): VirtualModelRecord | undefined {
    return this.snapshot.virtualModels.get(name);
  }

  /** Every virtual model, by name. */
  allVirtualModels(): ReadonlyMap<string, VirtualModelRecord> {
    return this.snapshot.virtualModels;
  }

  /** Whether some channel (of any group, in any status) serves the model. */
  servesModel(model: string): boolean {
    return this.snapshot.servedModels.has(model);
  }

  groupRatio(group: string): number {
    return this.snapshot.groupRatios.get(group) ?? 1;
  }

  /** Whether the group stores its keys' bodies, for keys that follow it. */
  groupLogsBodies(group: string): boolean {
    return this.snapshot.bodyLoggingGroups.has(group);
  }

  /** The group when it has budgets or a concurrency cap; undefined otherwise. */
  limitedGroup(group: string): GroupRecord | undefined {
    return this.snapshot.limitedGroups.get(group);
  }

  /** Every channel, whatever its status. */
  channels(): readonly RoutableChannel[] {
    return this.snapshot.channels;
  }

  channel(id: number): RoutableChannel | undefined {
    return this.snapshot.channels.find((channel) => channel.id === id);
  }
}

function buildSnapshot(
  channels: ChannelRecord[],
  prices: PriceRecord[],
  groups: GroupRecord[],
  modelMetadata: ModelMetadataRecord[],
  virtualModels: VirtualModelRecord[],
): Snapshot {
  const routable = channels.map(toRoutableChannel);
  const serving = new Map<string, Map<string, RoutableChannel[]>>();
  for (const channel of routable) {
    if (channel.status !== 'enabled') continue;
    for (const group of channel.groups) {
      let models = serving.get(group);
      if (!models) serving.set(group, (models = new Map()));
      for (const model of channel.models) {
        const list = models.get(model);
        if (list) list.push(channel);
        else models.set(model, [channel]);
      }
    }
  }
  for (const models of serving.values()) {
    for (const list of models.values()) list.sort((a, b) => b.priority - a.priority || a.id - b.id);
  }
  return {
    channels: routable,
    serving,
    prices: new Map(prices.map((price) => [price.model, price])),
    groupRatios: new Map(groups.map((group) => [group.name, group.ratio])),
    modelMetadata: new Map(modelMetadata.map((metadata) => [metadata.model, metadata])),
    virtualModels: new Map(virtualModels.map((model) => [model.name, model])),
    servedModels: new Set(channels.flatMap((channel) => channel.models)),
    bodyLoggingGroups: new Set(groups.filter((group) => group.logBodies).map((group) => group.name)),
    limitedGroups: new Map(
      groups
        .filter((group) => group.budgets.length > 0 || group.maxConcurrency !== null)
        .map((group) => [group.name, group]),
    ),
  };
}
