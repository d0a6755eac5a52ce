// Loaded with `--import` into a process. On SIGUSR2 it makes many objects at one place in the code
// and holds them across young collections (as open streams hold theirs), lets them go, then makes as
// many short-lived objects at the same place, and prints on stdout how many bytes the old
// generation grew by meanwhile (`old space grew N`), or `full collection` when one ran meanwhile
// and the figure says nothing.
import { PerformanceObserver, constants } from 'node:perf_hooks';
import v8 from 'node:v8';

const oldSpaceUsed = () =>
  v8.getHeapSpaceStatistics().find((space) => space.space_name === 'old_space').space_used_size;
const make = (index) => ({ index, list: [index, 2], meta: { index } });

let fullCollections = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries())
    if (entry.detail?.kind === constants.NODE_PERFORMANCE_GC_MAJOR) fullCollections += 1;
}).observe({ entryTypes: ['gc'] });

process.on('SIGUSR2', () => {
  let held = [];
  for (let index = 0; index < 400_000; index += 1) held.push(make(index));
  held = null;
  // Let the observer report the collections so far before counting.
  setTimeout(() => {
    const ring = new Array(64).fill(null);
    const fullBefore = fullCollections;
    const before = oldSpaceUsed();
    for (let index = 0; index < 300_000; index += 1) ring[index & 63] = make(index);
    const grown = oldSpaceUsed() - before;
    setTimeout(() => {
      process.stdout.write(
        fullCollections === fullBefore ? `old space grew ${grown}\n` : 'full collection\n',
      );
    }, 50);
  }, 50);
});
process.stdout.write('probe ready\n');
