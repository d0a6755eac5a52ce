import { isDeepStrictEqual } from 'node:util';
import { checkChannelTransport } from '../admin/validate-channel-transport.js';
import type { ChannelRecord, NewChannel } from '../store/channels-repository.js';
import { defaultGroup, type GroupRecord } from '../store/groups-repository.js';
import type { GuardrailRecord, NewGuardrail } from '../store/guardrails-repository.js';
import type { ManagedKind } from '../store/managed-entities-repository.js';
import type { ModelMetadataRecord } from '../store/model-metadata-repository.js';
import type { PriceRecord } from '../store/prices-repository.js';
import type { Repositories } from '../store/repositories.js';
import type { VirtualModelRecord } from '../store/virtual-models-repository.js';
import type { ConfigFile } from './config-file-schema.js';
import { serializeGroup } from '../admin/serialize-group.js';
import { serializeGuardrail } from '../admin/serialize-guardrail.js';
import { serializeModelMetadata } from '../admin/serialize-model-metadata.js';
import { serializePrice } from '../admin/serialize-price.js';
import { serializeVirtualModel } from '../admin/serialize-virtual-model.js';

/** How one kind of entity is brought to what the file declares, each entry as its repository takes it. */
export interface KindSync<Entity> {
  kind: ManagedKind;
  desired: readonly Entity[];
  stored: readonly Entity[];
  keyOf(entity: Entity): string;
  /** Whether the stored entity already is what the file declares. */
  same(desired: Entity, stored: Entity): boolean;
  /** The entity as the file writes it (and the API takes it); channel keys as given, unmasked. */
  entry(entity: Entity): FileEntry;
  create(entity: Entity): Promise<unknown>;
  change(desired: Entity, stored: Entity): Promise<unknown>;
  remove(stored: Entity): Promise<unknown>;
}

type Entries<Kind extends keyof ConfigFile> = NonNullable<ConfigFile[Kind]>;

/** One entry of a list of the file, members in the API's names. */
export type FileEntry = Record<string, unknown>;

/** Compared as the API would show them: members left `undefined` do not count. */
function sameJson(left: unknown, right: unknown): boolean {
  return isDeepStrictEqual(JSON.parse(JSON.stringify(left)), JSON.parse(JSON.stringify(right)));
}

export async function groupsSync(
  repositories: Repositories,
  entries: Entries<'groups'>,
): Promise<KindSync<GroupRecord>> {
  const { groups } = repositories;
  return {
    kind: 'groups',
    desired: entries.map((entry) => {
      const defaults = defaultGroup(entry.name);
      return {
        name: entry.name,
        ratio: entry.ratio ?? defaults.ratio,
        budgets: entry.budgets ?? defaults.budgets,
        maxConcurrency: entry.max_concurrency ?? defaults.maxConcurrency,
        logBodies: entry.log_bodies ?? defaults.logBodies,
      };
    }),
    stored: await groups.all(),
    keyOf: (group) => group.name,
    same: sameJson,
    entry: serializeGroup,
    create: (group) => groups.put(group),
    change: (group) => groups.put(group),
    remove: (group) => groups.delete(group.name),
  };
}

export async function pricesSync(
  repositories: Repositories,
  entries: Entries<'prices'>,
): Promise<KindSync<PriceRecord>> {
  const { prices } = repositories;
  return {
    kind: 'prices',
    desired: entries.map((entry) => ({
      model: entry.model,
      input: entry.input,
      output: entry.output,
      cachedInput: entry.cached_input,
      cacheWrite: entry.cache_write,
      perRequest: entry.per_request,
      inputAudio: entry.input_audio,
      outputAudio: entry.output_audio,
      perMinute: entry.per_minute,
      perMillionCharacters: entry.per_million_characters,
    })),
    stored: await prices.all(),
    keyOf: (price) => price.model,
    same: sameJson,
    entry: serializePrice,
    create: (price) => prices.put(price),
    change: (price) => prices.put(price),
    remove: (price) => prices.delete(price.model),
  };
}

export async function modelsSync(
  repositories: Repositories,
  entries: Entries<'models'>,
): Promise<KindSync<ModelMetadataRecord>> {
  const { modelMetadata } = repositories;
  return {
    kind: 'models',
    desired: entries.map((entry) => ({
      model: entry.model,
      contextWindow: entry.context_window,
      maxOutputTokens: entry.max_output_tokens,
      capabilities: entry.capabilities,
    })),
    stored: await modelMetadata.all(),
    keyOf: (metadata) => metadata.model,
    same: sameJson,
    entry: serializeModelMetadata,
    create: (metadata) => modelMetadata.put(metadata),
    change: (metadata) => modelMetadata.put(metadata),
    remove: (metadata) => modelMetadata.delete(metadata.model),
  };
}

/** A channel as the file declares it and as it is stored: without what the database assigns. */
type DeclaredChannel = NewChannel & Partial<Pick<ChannelRecord, 'id' | 'createdAt'>>;

export async function channelsSync(
  repositories: Repositories,
  entries: Entries<'channels'>,
): Promise<KindSync<DeclaredChannel>> {
  const { channels } = repositories;
  const declared = ({ id: _id, createdAt: _createdAt, ...channel }: DeclaredChannel): NewChannel => channel;
  // Of two stored channels with one name (made through the API), the file takes the older.
  const stored = (await channels.all()).sort((a, b) => b.id - a.id);
  return {
    kind: 'channels',
    desired: entries.map((entry) => {
      const checked = checkChannelTransport({
        type: entry.type,
        config: entry.config,
        baseUrl: entry.base_url,
        keys: entry.keys,
      });
      return {
        name: entry.name,
        type: entry.type,
        baseUrl: entry.base_url,
        keys: entry.keys,
        models: entry.models,
        modelMapping: entry.model_mapping,
        groups: entry.groups,
        priority: entry.priority,
        weight: entry.weight,
        endpoints: entry.endpoints,
        status: entry.status,
        // The schema checked the transport already: this fills in the type's defaults.
        config: 'config' in checked ? checked.config : entry.config,
      };
    }),
    stored,
    keyOf: (channel) => channel.name,
    // A channel health took out of service is `enabled` as far as the file is concerned.
    same: (desired, current) =>
      sameJson(declared(desired), {
        ...declared(current),
        status:
          current.status === 'auto_disabled' && desired.status === 'enabled' ? 'enabled' : current.status,
      }),
    entry: (channel) => ({
      name: channel.name,
      type: channel.type,
      base_url: channel.baseUrl,
      keys: channel.keys,
      models: channel.models,
      model_mapping: channel.modelMapping,
      groups: channel.groups,
      priority: channel.priority,
      weight: channel.weight,
      endpoints: channel.endpoints,
      status: channel.status,
      config: channel.config,
    }),
    create: (channel) => channels.create(declared(channel)),
    change: (channel, current) => channels.update(current.id!, declared(channel)),
    remove: (channel) => channels.delete(channel.id!),
  };
}

export async function virtualModelsSync(
  repositories: Repositories,
  entries: Entries<'virtual_models'>,
): Promise<KindSync<VirtualModelRecord>> {
  const { virtualModels } = repositories;
  return {
    kind: 'virtual_models',
    desired: entries.map((entry) => ({
      name: entry.name,
      targets: entry.targets,
      strategy: entry.strategy,
      fallbackOn: entry.fallback_on,
      sticky: entry.sticky,
    })),
    stored: await virtualModels.all(),
    keyOf: (model) => model.name,
    same: sameJson,
    entry: serializeVirtualModel,
    create: (model) => virtualModels.create(model),
    change: (model) => virtualModels.replace(model),
    remove: (model) => virtualModels.delete(model.name),
  };
}

type DeclaredGuardrail = NewGuardrail & Partial<Pick<GuardrailRecord, 'id' | 'createdAt'>>;

export async function guardrailsSync(
  repositories: Repositories,
  entries: Entries<'guardrails'>,
): Promise<KindSync<DeclaredGuardrail>> {
  const { guardrails } = repositories;
  const declared = ({ id: _id, createdAt: _createdAt, ...guardrail }: DeclaredGuardrail): NewGuardrail =>
    guardrail;
  return {
    kind: 'guardrails',
    desired: entries.map((entry) => ({
      name: entry.name,
      kind: entry.kind,
      // What the other kind reads is cleared, as the API does.
      pattern: entry.kind === 'regex' ? entry.pattern : null,
      url: entry.kind === 'webhook' ? entry.url : null,
      action: entry.action,
      fail: entry.fail,
      timeoutMs: entry.timeout_ms,
      groups: entry.groups,
    })),
    stored: await guardrails.all(),
    keyOf: (guardrail) => guardrail.name,
    same: (desired, current) => sameJson(declared(desired), declared(current)),
    entry: (guardrail) => {
      const { id: _id, created_at: _createdAt, ...entry } = serializeGuardrail(guardrail as GuardrailRecord);
      return entry;
    },
    create: (guardrail) => guardrails.create(declared(guardrail)),
    change: (guardrail, current) =>
      guardrails.replace({ ...declared(guardrail), id: current.id!, createdAt: current.createdAt! }),
    remove: (guardrail) => guardrails.delete(guardrail.id!),
  };
}
