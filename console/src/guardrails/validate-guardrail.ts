import { MAX_TIMEOUT_MS, MIN_TIMEOUT_MS, type GuardrailFormValues } from './guardrail-form-values';

export type GuardrailField = 'name' | 'pattern' | 'url' | 'timeoutMs' | 'groups';

export type GuardrailProblem =
  | { field: 'name'; problem: 'required' }
  | { field: 'name'; problem: 'taken' }
  | { field: 'pattern'; problem: 'required' }
  | { field: 'pattern'; problem: 'invalidPattern'; reason: string }
  | { field: 'url'; problem: 'required' }
  | { field: 'url'; problem: 'invalidUrl' }
  | { field: 'timeoutMs'; problem: 'timeoutRange' }
  | { field: 'groups'; problem: 'noGroups' };

/**
 * Why `source` does not compile as a JavaScript regular expression, or undefined when it does. The
 * gateway compiles it in Unicode mode (flag `u`), which refuses some patterns the legacy mode accepts
 * (a lone `{`, a needless escape such as `\-` outside a class).
 */
function patternError(source: string): string | undefined {
  try {
    new RegExp(source, 'u');
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

function isHttpUrl(text: string): boolean {
  try {
    const { protocol } = new URL(text);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * What the gateway would refuse in a guardrail (admin-api section 12), found before sending: no name
 * or another guardrail's, a regex without a pattern or with one that does not compile, a webhook
 * without an http(s) URL or with a timeout outside 1..60000, and "some groups" with none named.
 * Whether a pattern risks catastrophic backtracking is the gateway's call: its 400 names `pattern`.
 */
export function validateGuardrail(
  values: GuardrailFormValues,
  context: {
    /** The other guardrails' names. */
    takenNames: readonly string[];
  },
): GuardrailProblem[] {
  const problems: GuardrailProblem[] = [];
  const name = values.name.trim();
  if (name === '') problems.push({ field: 'name', problem: 'required' });
  else if (context.takenNames.includes(name)) problems.push({ field: 'name', problem: 'taken' });
  if (values.kind === 'regex') {
    const reason = values.pattern === '' ? undefined : patternError(values.pattern);
    if (values.pattern === '') problems.push({ field: 'pattern', problem: 'required' });
    else if (reason !== undefined) problems.push({ field: 'pattern', problem: 'invalidPattern', reason });
  }
  if (values.kind === 'webhook') {
    const url = values.url.trim();
    if (url === '') problems.push({ field: 'url', problem: 'required' });
    else if (!isHttpUrl(url)) problems.push({ field: 'url', problem: 'invalidUrl' });
    const timeout = Number(values.timeoutMs);
    const inRange = Number.isInteger(timeout) && timeout >= MIN_TIMEOUT_MS && timeout <= MAX_TIMEOUT_MS;
    if (values.timeoutMs !== '' && !inRange) problems.push({ field: 'timeoutMs', problem: 'timeoutRange' });
  }
  if (!values.allGroups && values.groups.length === 0)
    problems.push({ field: 'groups', problem: 'noGroups' });
  return problems;
}
