import { findProvider } from '../providers/registry.js';
import type { ChannelConfig } from '../store/channels-repository.js';
import { invalidField } from './admin-error.js';
import { describeIssue } from './describe-issue.js';

/**
 * A channel's `config` checked against its type's own schema (admin-api section 5): an unknown
 * member, a missing required one or a wrong value is a 400 naming `config.<member>`. Returns the
 * config with the type's defaults filled in, as it is stored and shown.
 */
export function validateChannelConfig(options: { type: string; config: ChannelConfig }): ChannelConfig {
  const provider = findProvider(options.type);
  if (!provider) throw invalidField('type', 'is not a known channel type');
  const result = provider.configSchema.safeParse(options.config);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const issue = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? issues[0];
  if (!issue) throw invalidField('config', `is not valid for type ${options.type}`);
  const described = describeIssue({ ...issue, path: ['config', ...issue.path] }, { config: options.config });
  throw invalidField(described.field, `${described.problem} (type ${options.type})`);
}
