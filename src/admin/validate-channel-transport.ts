import { findProvider } from '../providers/registry.js';
import type { ChannelConfig } from '../store/channels-repository.js';
import { invalidField } from './admin-error.js';
import { describeIssue } from './describe-issue.js';

/** What a channel needs to reach its upstream: checked together, since the type decides the rest. */
export interface ChannelTransport {
  type: string;
  config: ChannelConfig;
  baseUrl: string | null;
  keys: readonly string[];
}

/**
 * A channel's type-specific fields checked against its type (admin-api section 5): `config` by the
 * type's own schema (an unknown member, a missing required one or a wrong value is a 400 naming
 * `config.<member>`), `base_url` present where the type has no public origin (Azure), at least
 * one key unless the type runs without (Ollama, vLLM), and each key of the type's form. Returns
 * the config with the type's defaults filled in, as it is stored and shown.
 */
export function validateChannelTransport(channel: ChannelTransport): ChannelConfig {
  const provider = findProvider(channel.type);
  if (!provider) throw invalidField('type', 'is not a known channel type');
  const result = provider.configSchema.safeParse(channel.config);
  if (!result.success) {
    const issues = result.error.issues;
    const issue = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? issues[0];
    if (!issue) throw invalidField('config', `is not valid for type ${channel.type}`);
    const described = describeIssue(
      { ...issue, path: ['config', ...issue.path] },
      { config: channel.config },
    );
    throw invalidField(described.field, `${described.problem} (type ${channel.type})`);
  }
  const config = result.data;
  if (channel.baseUrl === null && provider.defaultBaseUrl(config) === undefined)
    throw invalidField('base_url', `is required for type ${channel.type}`);
  if (channel.keys.length === 0 && !provider.keyOptional)
    throw invalidField('keys', 'must hold at least one key');
  channel.keys.forEach((key, index) => {
    const problem = provider.describeKeyProblem?.(key);
    if (problem) throw invalidField(`keys[${index}]`, problem);
  });
  return config;
}
