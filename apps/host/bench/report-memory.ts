/**
 * Loaded with `node --import` into the processes the HTTP bench starts: on
 * SIGUSR2 the process writes its memory, as it was left and again after a
 * full garbage collection, to `<BENCH_MEMORY_DIRECTORY>/<pid>.json`, so the
 * bench can tell memory still held from garbage not yet collected. With
 * BENCH_HEAP_SNAPSHOTS set it writes a heap snapshot there first, to compare
 * by constructor and retainer in Chrome's DevTools.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { getHeapSpaceStatistics, setFlagsFromString, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';

const directory = process.env.BENCH_MEMORY_DIRECTORY;
if (directory !== undefined) {
  // The collector is exposed only to this reporter: a fresh context picks up the flag, the server's code never sees it.
  setFlagsFromString('--expose-gc');
  const collect = runInNewContext('gc') as () => void;
  process.on('SIGUSR2', () => {
    const left = process.memoryUsage();
    const spaces = Object.fromEntries(
      getHeapSpaceStatistics().map((space) => [
        space.space_name,
        { size: space.space_size, used: space.space_used_size },
      ]),
    );
    if (process.env.BENCH_HEAP_SNAPSHOTS !== undefined)
      writeHeapSnapshot(join(directory, `${process.pid}.heapsnapshot`));
    collect();
    const collected = process.memoryUsage();
    // Written whole, then renamed into place, so the bench never reads half a report.
    const report = join(directory, `${process.pid}.json`);
    writeFileSync(`${report}.partial`, JSON.stringify({ left, collected, spaces }));
    renameSync(`${report}.partial`, report);
  });
}
