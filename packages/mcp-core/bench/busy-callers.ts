/** One client of a throughput bench: makes one call, with the id it is given, and resolves when it is answered. */
export interface BusyCaller {
  call(id: number): Promise<void>;
}

/**
 * Keeps every caller busy, one call in flight each, for `milliseconds`;
 * returns how many calls finished inside that window and how long each took.
 * Calls still in flight when the window closes are awaited but not counted.
 */
export async function keepBusy(
  callers: readonly BusyCaller[],
  milliseconds: number,
  ids: { next: number },
): Promise<{ calls: number; seconds: number; latencies: number[] }> {
  let recording = true;
  let stop = false;
  let failure: unknown;
  const latencies: number[] = [];
  const loop = async (caller: BusyCaller): Promise<void> => {
    while (!stop) {
      const started = performance.now();
      await caller.call(ids.next++);
      if (recording) latencies.push(performance.now() - started);
    }
  };
  const began = performance.now();
  const running = Promise.all(
    callers.map((caller) =>
      loop(caller).catch((error: unknown) => {
        failure ??= error;
        stop = true;
      }),
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, milliseconds));
  recording = false;
  const seconds = (performance.now() - began) / 1000;
  stop = true;
  await running;
  if (failure !== undefined) throw failure;
  return { calls: latencies.length, seconds, latencies };
}
