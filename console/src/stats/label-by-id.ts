/**
 * Names a stats group that is an id (channel, user, key): `name (#id)` when the id is known,
 * `#id` when it is not (deleted since), the fallback for no id.
 */
export function labelById(
  names: ReadonlyMap<number, string>,
  fallback: string,
): (group: string | number | null) => string {
  return (group) => {
    if (group === null || group === '') return fallback;
    const id = Number(group);
    const name = Number.isInteger(id) ? names.get(id) : undefined;
    return name === undefined ? `#${String(group)}` : `${name} (#${id})`;
  };
}
