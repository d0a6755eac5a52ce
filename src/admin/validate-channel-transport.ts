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

/** What is wrong with a channel's transport: the field, as a request body names it, and the problem. */
export interface FieldProblem {
  field: string;
  problem: string;
}

/**
 * A channel's type-specific fields checked against its type (admin-api section 5): `config` by the
 * type's own schema (an unknown member, a missing required one or a wrong value is a 400 naming
 * `config.<member>`), `base_url` present where the type has no public origin (Azure), at least
 * one key unless the type runs without (Ollama, vLLM), and each key of the type's form. Returns
 * the config with the type's defaults filled in, as it is stored and shown.
 */
export function validateChannelTransport(channel: ChannelTransport): ChannelConfig {
  const checked = checkChannelTransport(channel);
  if ('problem' in checked) throw invalidField(checked.field, checked.problem);
  return checked.config;
}

/** As `validateChannelTransport`, with the first problem returned instead of thrown. */
export function checkChannelTransport(channel: ChannelTransport): { config: ChannelConfig } | FieldProblem {
  const provider = findProvider(channel.type);
  if (!provider) return { field: 'type', problem: 'is not a known channel type' };
  const result = provider.configSchema.safeParse(channel.config);
  if (!result.success) {
    const issues = result.error.issues;
    const issue = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? issues[0];
    if (!issue) return { field: 'config', problem: `is not valid for type ${channel.type}` };
    const described = describeIssue(
      { ...issue, path: ['config', ...issue.path] },
      { config: channel.config },
    );
    return { field: described.field, problem: `${described.problem} (type ${channel.type})` };
  }
  const config = result.data;
  if (channel.baseUrl === null && provider.defaultBaseUrl(config) === undefined)
    return { field: 'base_url', problem: `is required for type ${channel.type}` };
  if (channel.keys.length === 0 && !provider.keyOptional)
    return { field: 'keys', problem: 'must hold at least one key' };
  for (const [index, key] of channel.keys.entries()) {
    const problem = provider.describeKeyProblem?.(key);
    if (problem) return { field: `keys[${index}]`, problem };
  }
  return { config };
}
