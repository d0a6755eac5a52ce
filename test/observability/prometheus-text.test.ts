import { expect, test } from 'vitest';
import { parsePrometheusText, valueOf } from '../helpers/prometheus-text.js';

/** The test reader of the exposition format must itself refuse what the format does not allow. */
test('the exposition reader reads labels with escapes, NaN and histograms, and refuses malformed text', () => {
  const families = parsePrometheusText(
    [
      '# HELP a_total things',
      '# TYPE a_total counter',
      'a_total{model="q\\"x\\\\y\\nz",kind="in"} 3',
      '# TYPE lag gauge',
      'lag Nan',
      '# TYPE h histogram',
      'h_bucket{le="0.5",e="x"} 1',
      'h_bucket{le="+Inf",e="x"} 2',
      'h_sum{e="x"} 1.5',
      'h_count{e="x"} 2',
      '',
    ].join('\n'),
  );
  expect(valueOf(families, 'a_total', { model: 'q"x\\y\nz', kind: 'in' })).toBe(3);
  expect(valueOf(families, 'lag')).toBeNaN();
  expect(valueOf(families, 'h_count', { e: 'x' })).toBe(2);
  expect(valueOf(families, 'a_total', { model: 'q"x\\y\nz' })).toBeUndefined();

  const bad = [
    'a_total 1',
    '# TYPE a_total counter\na_total 1\na_total 2',
    '# TYPE a_total counter\na_total{m="\\x"} 1',
    '# TYPE a_total counter\na_total{m="x} 1',
    '# TYPE a_total counter\nb_total 1',
    '# TYPE a_total counter\na_total one',
    '# TYPE h histogram\nh_bucket{le="1"} 2\nh_bucket{le="+Inf"} 1\nh_count 1',
    '# TYPE h histogram\nh_bucket{le="+Inf"} 2\nh_count 3',
  ];
  for (const text of bad) expect(() => parsePrometheusText(text), text).toThrow();
});
