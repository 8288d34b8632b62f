// Taken with getBuiltinModule, as elsewhere in the host: an ES import builds a facade of every export at start.
const { PerformanceObserver } = process.getBuiltinModule('node:perf_hooks');
const { getHeapSpaceStatistics, setFlagsFromString } = process.getBuiltinModule('node:v8');

/**
 * The size, in MiB, of each of the young generation's two semi-spaces that
 * `toolshed serve` lets V8 grow to: a 32 MiB young generation. Under many
 * concurrent calls V8 doubles it up to its own maximum, 64 MiB a semi-space,
 * and never gives the pages back to the system while the load lasts; that is
 * about 100 MiB of resident memory that holds only garbage. Below 16 the
 * host spends measurably more CPU per call in scavenges (see the README).
 */
export const youngGenerationSemiSpaceMiB = 16;

/** Node flags that size the heap: when one is given, the operator chose, and the host leaves V8 alone. */
const heapSizingFlags = /--(max[-_]semi[-_]space[-_]size|semi[-_]space[-_]growth[-_]factor|max[-_]heap[-_]size)\b/;

/**
 * Stops V8's young generation growing past `semiSpaceMiB` a semi-space, in
 * a process already started: V8 takes `--max-semi-space-size` only at
 * start-up, but reads its growth factor each time it grows the space, so
 * after every garbage collection the factor is set to 1 once the space has
 * reached the cap and back to 2 when V8 has shrunk it (when load falls).
 * Returns a function that stops watching, or `undefined` when Node was
 * started with a heap-sizing flag of its own (`node --max-semi-space-size=64`
 * or the same in NODE_OPTIONS).
 *
 * @example
 * capYoungGeneration({ semiSpaceMiB: 16, execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS });
 */
export function capYoungGeneration(options: {
  semiSpaceMiB: number;
  execArgv: readonly string[];
  nodeOptions: string | undefined;
}): (() => void) | undefined {
  if ([...options.execArgv, options.nodeOptions ?? ''].some((flag) => heapSizingFlags.test(flag))) return undefined;
  // V8 counts both semi-spaces in the new space's size.
  const capBytes = 2 * options.semiSpaceMiB * 2 ** 20;
  let growing = true;
  const observer = new PerformanceObserver(() => {
    const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
    if (newSpace === undefined) return;
    const full = newSpace.space_size >= capBytes;
    if (full !== growing) return;
    setFlagsFromString(full ? '--semi-space-growth-factor=1' : '--semi-space-growth-factor=2');
    growing = !full;
  });
  observer.observe({ entryTypes: ['gc'] });
  return () => {
    observer.disconnect();
    if (!growing) setFlagsFromString('--semi-space-growth-factor=2');
  };
}
