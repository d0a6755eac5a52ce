/**
 * Stripe's request bodies are `application/x-www-form-urlencoded` with nesting in brackets
 * (https://docs.stripe.com/api/expanding_objects and every create call): `metadata[order_id]=...`,
 * `line_items[0][price_data][unit_amount]=1000`, `expand[]=x`. Read back into nested objects and
 * arrays; every leaf stays a string, as Stripe receives it.
 */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };

export function parseStripeForm(body: string): { [key: string]: FormValue } {
  const root: { [key: string]: FormValue } = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
    if (!match) throw new Error(`malformed parameter name "${name}"`);
    const path = [match[1]!, ...[...match[2]!.matchAll(/\[([^[\]]*)\]/g)].map((part) => part[1]!)];
    assign(root, path, value);
  }
  return root;
}

function assign(container: { [key: string]: FormValue } | FormValue[], path: string[], value: string): void {
  const [head, ...rest] = path;
  if (head === undefined) return;
  const key = head === '' && Array.isArray(container) ? container.length : head;
  if (rest.length === 0) {
    setMember(container, key, value);
    return;
  }
  let child = getMember(container, key);
  if (child === undefined || typeof child === 'string') {
    child = /^\d*$/.test(rest[0]!) ? [] : {};
    setMember(container, key, child);
  }
  assign(child as { [key: string]: FormValue } | FormValue[], rest, value);
}

function getMember(container: { [key: string]: FormValue } | FormValue[], key: string | number) {
  return Array.isArray(container) ? container[Number(key)] : container[key];
}

function setMember(
  container: { [key: string]: FormValue } | FormValue[],
  key: string | number,
  value: FormValue,
) {
  if (Array.isArray(container)) container[Number(key)] = value;
  else if (key === '__proto__' || key === 'constructor' || key === 'prototype')
    throw new Error(`parameter name "${key}" refused`);
  else container[key] = value;
}
