import type { z } from 'zod';
import { parseJson } from '../http/read-body.js';
import { invalidField, invalidRequest } from './admin-error.js';
import { describeIssue } from './describe-issue.js';

export interface ParseBodyOptions {
  /** Fields that reads return but writes may not set; named in the error rather than called unknown. */
  readOnly?: readonly string[];
}

/** Parses a raw request body as a JSON object and validates it, or throws a 400 naming the field. */
export function parseBody<Schema extends z.ZodType>(
  body: unknown,
  schema: Schema,
  options: ParseBodyOptions = {},
): z.output<Schema> {
  const json = readJsonObject(body);
  for (const field of options.readOnly ?? []) {
    if (Object.hasOwn(json, field)) throw invalidField(field, 'is read-only');
  }
  const result = schema.safeParse(json);
  if (result.success) return result.data;
  const issues = result.error.issues;
  // A misspelt field also shows up as a missing one; naming the unknown field points at the cause.
  const issue = issues.find((candidate) => candidate.code === 'unrecognized_keys') ?? issues[0];
  if (!issue) throw invalidRequest('invalid request body');
  const described = describeIssue(issue, json);
  throw invalidField(described.field, described.problem);
}

function readJsonObject(body: unknown): Record<string, unknown> {
  const parsed = parseJson(Buffer.isBuffer(body) ? body : undefined);
  if (!parsed.ok) throw invalidRequest(`invalid JSON body: ${parsed.detail}`);
  const value = parsed.value;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw invalidRequest('request body must be a JSON object');
  }
  return value as Record<string, unknown>;
}
