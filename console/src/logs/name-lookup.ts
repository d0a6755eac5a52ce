/** `name (#id)` for a known id, `#id` for one that is gone, a dash for none. */
export function nameLookup(names: ReadonlyMap<number, string>): (id: number | null) => string {
  return (id) => {
    if (id === null) return '—';
    const name = names.get(id);
    return name === undefined || name === '' ? `#${id}` : `${name} (#${id})`;
  };
}
