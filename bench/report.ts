/** One measure on the three targets, with the gateway's ratio to each of the others. */
export interface Compared {
  direct?: number;
  bare_proxy: number;
  gateway: number;
  gateway_vs_direct?: number;
  gateway_vs_bare_proxy: number;
  /** For times: milliseconds the gateway adds. */
  gateway_added_vs_direct?: number;
  gateway_added_vs_bare_proxy?: number;
}

export const round = (value: number, digits = 2): number => Number(value.toFixed(digits));
const ratio = (a: number, b: number) => round(a / b, 3);

/**
 * Rounds a measure taken on each target and adds the gateway's ratios; `added` also reports the
 * differences, for times. Measures that only apply to a process of ours (CPU, memory) have no
 * direct value.
 */
export function compare(
  values: { direct?: number; bareProxy: number; gateway: number },
  options: { digits: number; added?: boolean },
): Compared {
  const { direct, bareProxy, gateway } = values;
  const compared: Compared = {
    ...(direct === undefined ? {} : { direct: round(direct, options.digits) }),
    bare_proxy: round(bareProxy, options.digits),
    gateway: round(gateway, options.digits),
    ...(direct === undefined ? {} : { gateway_vs_direct: ratio(gateway, direct) }),
    gateway_vs_bare_proxy: ratio(gateway, bareProxy),
  };
  if (options.added) {
    if (direct !== undefined) compared.gateway_added_vs_direct = round(gateway - direct, 3);
    compared.gateway_added_vs_bare_proxy = round(gateway - bareProxy, 3);
  }
  return compared;
}

/** A table row: the three values and the two ratios, with the added time beside a ratio where known. */
export function row(label: string, measure: Compared): string[] {
  const cell = (value: number | undefined) => (value === undefined ? '' : `${value}`);
  const withAdded = (value: number | undefined, added: number | undefined) =>
    value === undefined
      ? ''
      : added === undefined
        ? `${value}`
        : `${value} (${added >= 0 ? '+' : ''}${added} ms)`;
  return [
    label,
    cell(measure.direct),
    cell(measure.bare_proxy),
    cell(measure.gateway),
    withAdded(measure.gateway_vs_direct, measure.gateway_added_vs_direct),
    withAdded(measure.gateway_vs_bare_proxy, measure.gateway_added_vs_bare_proxy),
  ];
}

const COMPARED_HEADER = [
  'measure',
  'direct',
  'bare proxy',
  'gateway',
  'gateway / direct',
  'gateway / bare proxy',
];

export function formatTable(rows: string[][], header: string[] = COMPARED_HEADER): string {
  const all = [header, ...rows];
  const widths = header.map((_, column) => Math.max(...all.map((cells) => cells[column]?.length ?? 0)));
  return all
    .map((cells) =>
      cells
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
