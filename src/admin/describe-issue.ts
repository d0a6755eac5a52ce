import type { z } from 'zod';

type Issue = z.core.$ZodIssue;

/** Turns a zod issue into the field it concerns (`ip_allow_list[0]`) and what is wrong with it. */
export function describeIssue(issue: Issue, input: unknown): { field: string; problem: string } {
  if (issue.code === 'unrecognized_keys') {
    return { field: formatPath([...issue.path, issue.keys[0] ?? '']), problem: 'unknown field' };
  }
  const field = formatPath(issue.path) || 'body';
  const missing = issue.code === 'invalid_type' || issue.code === 'invalid_value';
  if (missing && valueAt(input, issue.path) === undefined) {
    return { field, problem: 'is required' };
  }
  if (issue.code === 'invalid_key') {
    return { field, problem: `key ${issue.issues[0]?.message ?? issue.message}` };
  }
  return { field, problem: issue.message };
}

/** A path as a request body or a file names it: `channels[2].type`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number') text += `[${segment}]`;
    else text += text === '' ? String(segment) : `.${String(segment)}`;
  }
  return text;
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const segment of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[segment];
  }
  return value;
}
