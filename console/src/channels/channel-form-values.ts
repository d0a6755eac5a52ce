import type { Channel, ChannelFields, ChannelStatus } from '../api/types';
import { splitList } from '../components/split-list';
import { channelTypeSpec } from './channel-types';
import { isDefaultBaseUrl } from './default-base-url';

export interface MappingRow {
  from: string;
  to: string;
}

/** What the channel form edits; numbers as the inputs hold them (empty text while typing). */
export interface ChannelFormValues {
  name: string;
  type: string;
  baseUrl: string;
  /** New upstream keys. When editing they replace the stored ones only if `replaceKeys`. */
  keys: string[];
  replaceKeys: boolean;
  models: string[];
  mapping: MappingRow[];
  groups: string[];
  priority: number | string;
  weight: number | string;
  overrideEndpoints: boolean;
  endpoints: string[];
  status: ChannelStatus;
  /** The type's own settings as text; empty: the gateway's default. */
  config: Record<string, string>;
}

/** Empty settings of a type, for a new channel or after the type changed. */
export function emptyConfig(type: string): Record<string, string> {
  return Object.fromEntries(channelTypeSpec(type).config.map((field) => [field.name, '']));
}

/** The form's starting values: a new OpenAI channel, or the stored channel (keys are write-only). */
export function channelToFormValues(channel?: Channel): ChannelFormValues {
  if (!channel) {
    return {
      name: '',
      type: 'openai',
      baseUrl: '',
      keys: [''],
      replaceKeys: true,
      models: [],
      mapping: [],
      groups: ['default'],
      priority: 0,
      weight: 1,
      overrideEndpoints: false,
      endpoints: [],
      status: 'enabled',
      config: emptyConfig('openai'),
    };
  }
  const config = emptyConfig(channel.type);
  for (const [name, value] of Object.entries(channel.config)) {
    if (value !== undefined && value !== null) config[name] = String(value);
  }
  return {
    name: channel.name,
    type: channel.type,
    // Reads fill in the default origin: shown empty, so it follows the type and region.
    baseUrl: isDefaultBaseUrl(channel) ? '' : (channel.base_url ?? ''),
    keys: [],
    replaceKeys: false,
    models: [...channel.models],
    mapping: Object.entries(channel.model_mapping).map(([from, to]) => ({ from, to })),
    groups: [...channel.groups],
    priority: channel.priority,
    weight: channel.weight,
    overrideEndpoints: channel.endpoints !== null,
    endpoints: [...(channel.endpoints ?? [])],
    status: channel.status,
    config,
  };
}

/** The API body of a new channel: empty settings left out (the gateway's default applies), empty keys and mapping rows dropped. */
export function formValuesToChannelFields(values: ChannelFormValues): ChannelFields {
  const spec = channelTypeSpec(values.type);
  const config: Record<string, string> = {};
  const names = spec.config.length > 0 ? spec.config.map((field) => field.name) : Object.keys(values.config);
  for (const name of names) {
    const text = (values.config[name] ?? '').trim();
    if (text !== '') config[name] = text;
  }
  return {
    name: values.name.trim(),
    type: values.type,
    base_url: values.baseUrl.trim() === '' ? null : values.baseUrl.trim(),
    keys: values.keys.map((key) => key.trim()).filter((key) => key !== ''),
    models: splitList(values.models),
    model_mapping: Object.fromEntries(
      values.mapping
        .map((row) => [row.from.trim(), row.to.trim()] as const)
        .filter(([from, to]) => from !== '' && to !== ''),
    ),
    groups: splitList(values.groups),
    priority: Number(values.priority),
    weight: Number(values.weight),
    endpoints: values.overrideEndpoints ? [...values.endpoints] : null,
    status: values.status,
    config,
  };
}

/**
 * The PATCH body of an edit: only what changed, the keys only when they are to be replaced, and
 * the settings whenever the type changed (the new type's settings replace the old ones).
 */
export function channelChanges(
  initial: ChannelFormValues,
  values: ChannelFormValues,
): Partial<ChannelFields> {
  const before = formValuesToChannelFields(initial);
  const after = formValuesToChannelFields(values);
  const changes: Partial<ChannelFields> = {};
  const assign = <Name extends keyof ChannelFields>(name: Name) => {
    changes[name] = after[name];
  };
  for (const name of Object.keys(after) as (keyof ChannelFields)[]) {
    if (name === 'keys') continue;
    if (JSON.stringify(before[name]) !== JSON.stringify(after[name])) assign(name);
  }
  if (after.type !== before.type) assign('config');
  if (values.replaceKeys) assign('keys');
  return changes;
}
