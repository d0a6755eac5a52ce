/**
 * A strict reader of the Prometheus text exposition format 0.0.4
 * (https://prometheus.io/docs/instrumenting/exposition_formats/#text-based-format), for tests: it
 * tokenizes each line (metric name, label pairs with their escapes, value), refuses anything the
 * format does not allow (a sample before its family's TYPE, a duplicate series, a bad escape, an
 * unknown suffix), and checks each histogram's buckets are cumulative with `+Inf` equal to `_count`.
 * The npm parsers tried lose the labels of histograms or cannot read prom-client's `Nan`.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'untyped';
  help: string;
  samples: Sample[];
}

const SUFFIXES: Record<Family['type'], readonly string[]> = {
  counter: [''],
  gauge: [''],
  untyped: [''],
  histogram: ['_bucket', '_sum', '_count'],
  summary: ['', '_sum', '_count'],
};

export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const seen = new Set<string>();
  let current: Family | undefined;
  text.split('\n').forEach((line, index) => {
    const where = `line ${index + 1}: ${line}`;
    if (line.trim() === '') return;
    if (line.startsWith('#')) {
      const [, keyword, name, ...rest] = line.split(' ');
      if (keyword !== 'HELP' && keyword !== 'TYPE') return;
      if (!name || !/^[a-zA-Z_:][a-zA-Z0-9_:]*$/.test(name)) throw new Error(`bad metric name, ${where}`);
      let family = families.get(name);
      if (!family) families.set(name, (family = { name, type: 'untyped', help: '', samples: [] }));
      if (keyword === 'HELP') family.help = rest.join(' ');
      else {
        const type = rest[0] as Family['type'];
        if (!(type in SUFFIXES)) throw new Error(`unknown type, ${where}`);
        family.type = type;
      }
      current = family;
      return;
    }
    const sample = readSample(line, where);
    if (!current) throw new Error(`sample outside a family, ${where}`);
    const suffix = sample.name.slice(current.name.length);
    if (!sample.name.startsWith(current.name) || !SUFFIXES[current.type].includes(suffix))
      throw new Error(`sample of another family than ${current.name}, ${where}`);
    const id = `${sample.name}${JSON.stringify(Object.entries(sample.labels).sort())}`;
    if (seen.has(id)) throw new Error(`duplicate series, ${where}`);
    seen.add(id);
    current.samples.push(sample);
  });
  for (const family of families.values()) if (family.type === 'histogram') checkHistogram(family);
  return families;
}

/** The value of one series (exactly these labels), or undefined when the exposition does not have it. */
export function valueOf(
  families: Map<string, Family>,
  sampleName: string,
  labels: Record<string, string> = {},
): number | undefined {
  const wanted = Object.entries(labels);
  return seriesOf(families, sampleName).find(
    (sample) =>
      Object.keys(sample.labels).length === wanted.length &&
      wanted.every(([key, value]) => sample.labels[key] === value),
  )?.value;
}

/** Every series of a sample name, as label sets with their values. */
export function seriesOf(families: Map<string, Family>, sampleName: string): Sample[] {
  return [...families.values()].flatMap((family) => family.samples.filter((s) => s.name === sampleName));
}

function readSample(line: string, where: string): Sample {
  let position = 0;
  const name = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line)?.[0];
  if (!name) throw new Error(`bad sample name, ${where}`);
  position = name.length;
  const labels: Record<string, string> = {};
  if (line[position] === '{') {
    position += 1;
    while (line[position] !== '}') {
      const labelName = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(line.slice(position))?.[0];
      if (
        !labelName ||
        line[position + labelName.length] !== '=' ||
        line[position + labelName.length + 1] !== '"'
      )
        throw new Error(`bad label, ${where}`);
      position += labelName.length + 2;
      let value = '';
      for (;;) {
        const char = line[position];
        if (char === undefined) throw new Error(`unterminated label value, ${where}`);
        position += 1;
        if (char === '"') break;
        if (char !== '\\') {
          value += char;
          continue;
        }
        const escaped = line[position];
        position += 1;
        if (escaped === 'n') value += '\n';
        else if (escaped === '\\' || escaped === '"') value += escaped;
        else throw new Error(`bad escape in label value, ${where}`);
      }
      if (labelName in labels) throw new Error(`repeated label ${labelName}, ${where}`);
      labels[labelName] = value;
      if (line[position] === ',') position += 1;
      else if (line[position] !== '}') throw new Error(`expected , or }, ${where}`);
    }
    position += 1;
  }
  if (line[position] !== ' ') throw new Error(`expected a space before the value, ${where}`);
  const [valueText, timestamp, extra] = line.slice(position + 1).split(' ');
  if (extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp)))
    throw new Error(`unexpected text after the value, ${where}`);
  return { name, labels, value: readValue(valueText ?? '', where) };
}

function readValue(text: string, where: string): number {
  const lower = text.toLowerCase();
  if (lower === 'nan') return Number.NaN;
  if (lower === '+inf' || lower === 'inf') return Number.POSITIVE_INFINITY;
  if (lower === '-inf') return Number.NEGATIVE_INFINITY;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`bad value, ${where}`);
  return value;
}

function checkHistogram(family: Family): void {
  const groups = new Map<string, { buckets: [number, number][]; count?: number }>();
  for (const sample of family.samples) {
    const { le, ...rest } = sample.labels;
    const id = JSON.stringify(Object.entries(rest).sort());
    const group = groups.get(id) ?? { buckets: [] };
    groups.set(id, group);
    if (sample.name.endsWith('_bucket')) {
      if (le === undefined) throw new Error(`${family.name}: a bucket without le`);
      group.buckets.push([readValue(le, family.name), sample.value]);
    } else if (sample.name.endsWith('_count')) group.count = sample.value;
  }
  for (const [id, group] of groups) {
    const sorted = [...group.buckets].sort((a, b) => a[0] - b[0]);
    sorted.forEach(([, count], index) => {
      if (index > 0 && count < sorted[index - 1]![1])
        throw new Error(`${family.name}${id}: buckets not cumulative`);
    });
    const last = sorted.at(-1);
    if (!last || last[0] !== Number.POSITIVE_INFINITY || last[1] !== group.count)
      throw new Error(`${family.name}${id}: the +Inf bucket is not the count`);
  }
}
