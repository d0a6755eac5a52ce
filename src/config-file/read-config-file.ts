import { readFile } from 'node:fs/promises';
import { parseDocument } from 'yaml';
import { describeIssue, formatPath } from '../admin/describe-issue.js';
import { configFileSchema, type ConfigFile } from './config-file-schema.js';
import { interpolateEnvironment } from './interpolate-environment.js';

export type ConfigFileReading = { ok: true; config: ConfigFile } | { ok: false; errors: string[] };

/**
 * Reads and checks a configuration file (admin-api section 13): YAML or JSON (JSON is YAML), its
 * `${NAME}` references taken from `environment`, its entries checked by the management API's
 * own schemas. Every error is reported at once, each with its place in the file
 * (`channels[2].type: ...`).
 */
export async function readConfigFile(
  file: string,
  environment: Readonly<Record<string, string | undefined>>,
): Promise<ConfigFileReading> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    return { ok: false, errors: [`${file}: ${(error as Error).message}`] };
  }
  return parseConfigText(text, environment);
}

/** As `readConfigFile`, for the file's text. */
export function parseConfigText(
  text: string,
  environment: Readonly<Record<string, string | undefined>>,
): ConfigFileReading {
  const document = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
  if (document.errors.length > 0)
    return { ok: false, errors: document.errors.map((error) => error.message.split('\n')[0]!) };
  const parsed: unknown = document.toJS() ?? {};
  if (typeof parsed !== 'object' || Array.isArray(parsed))
    return { ok: false, errors: ['the file must hold a mapping (channels:, prices:, ...)'] };
  const { value, missing } = interpolateEnvironment(parsed, environment);
  const errors = missing.map(
    (variable) =>
      `${formatPath(variable.path) || '(top level)'}: the environment variable ${variable.name} is not set`,
  );
  const result = configFileSchema.safeParse(value);
  if (!result.success)
    for (const issue of result.error.issues) {
      const { field, problem } = describeIssue(issue, value);
      errors.push(`${field}: ${problem}`);
    }
  if (errors.length > 0 || !result.success) return { ok: false, errors };
  return { ok: true, config: result.data };
}
