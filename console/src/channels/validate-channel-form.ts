import type { ChannelFormValues } from './channel-form-values';
import { channelTypeSpec } from './channel-types';

export type ChannelFormProblem =
  | { field: string; problem: 'required' }
  | { field: string; problem: 'url' }
  | { field: string; problem: 'integer'; min?: number }
  | { field: 'baseUrl'; problem: 'baseUrlRequired'; example: string };

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * What the gateway would refuse, found before sending: the type's required settings and base URL,
 * a key unless the type runs without one, at least one group, whole numbers.
 */
export function validateChannelForm(
  values: ChannelFormValues,
  options: { editing: boolean },
): ChannelFormProblem[] {
  const spec = channelTypeSpec(values.type);
  const problems: ChannelFormProblem[] = [];
  if (values.name.trim() === '') problems.push({ field: 'name', problem: 'required' });
  const baseUrl = values.baseUrl.trim();
  if (baseUrl === '' && spec.defaultBaseUrl === null) {
    problems.push({
      field: 'baseUrl',
      problem: 'baseUrlRequired',
      example: spec.baseUrlExample ?? 'https://…',
    });
  } else if (baseUrl !== '' && !isHttpUrl(baseUrl)) {
    problems.push({ field: 'baseUrl', problem: 'url' });
  }
  for (const field of spec.config) {
    if (field.required && (values.config[field.name] ?? '').trim() === '') {
      problems.push({ field: `config.${field.name}`, problem: 'required' });
    }
  }
  const keysGiven = values.keys.some((key) => key.trim() !== '');
  if ((!options.editing || values.replaceKeys) && !keysGiven && !spec.keyOptional) {
    problems.push({ field: 'keys', problem: 'required' });
  }
  if (values.groups.length === 0) problems.push({ field: 'groups', problem: 'required' });
  if (values.priority === '' || !Number.isInteger(Number(values.priority))) {
    problems.push({ field: 'priority', problem: 'integer' });
  }
  if (values.weight === '' || !Number.isInteger(Number(values.weight)) || Number(values.weight) < 0) {
    problems.push({ field: 'weight', problem: 'integer', min: 0 });
  }
  return problems;
}
