/** What interpolation found missing: the variable, and where in the file it was asked for. */
export interface MissingVariable {
  name: string;
  path: (string | number)[];
}

const REFERENCE = /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * `value` with every `${NAME}` in its strings replaced by the environment variable `NAME`
 * (admin-api section 13), so secrets stay out of the file; `$$` stands for one `$`. Keys are left
 * as written. Every variable the environment lacks is reported with its place, none replaced.
 */
export function interpolateEnvironment(
  value: unknown,
  environment: Readonly<Record<string, string | undefined>>,
): { value: unknown; missing: MissingVariable[] } {
  const missing: MissingVariable[] = [];
  const visit = (current: unknown, path: (string | number)[]): unknown => {
    if (typeof current === 'string')
      return current.replace(REFERENCE, (whole, name: string | undefined) => {
        if (name === undefined) return '$';
        const found = environment[name];
        if (found === undefined) {
          missing.push({ name, path });
          return whole;
        }
        return found;
      });
    if (Array.isArray(current)) return current.map((item, index) => visit(item, [...path, index]));
    if (typeof current === 'object' && current !== null) {
      const copy: Record<string, unknown> = {};
      for (const [key, member] of Object.entries(current)) {
        Object.defineProperty(copy, key, {
          value: visit(member, [...path, key]),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      return copy;
    }
    return current;
  };
  return { value: visit(value, []), missing };
}
