import { describe, expect, it } from 'vitest';
import { splitList } from './split-list';

describe('splitList', () => {
  it('splits on commas, spaces and new lines and drops empty entries', () => {
    expect(splitList(['gpt-4o, gpt-4o-mini', ' claude-sonnet-4\n', ''])).toEqual([
      'gpt-4o',
      'gpt-4o-mini',
      'claude-sonnet-4',
    ]);
  });

  it('keeps the first of duplicates', () => {
    expect(splitList(['a', 'b,a', 'c'])).toEqual(['a', 'b', 'c']);
  });
});
