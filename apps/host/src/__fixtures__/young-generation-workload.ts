/**
 * Run as its own Node process by the young-generation test: allocates the way
 * a busy server does — many short-lived objects, a share of them alive across
 * turns of the event loop — for a fixed amount of work, then prints the new
 * space's size in bytes. With `--cap` it caps the young generation first.
 */
import { getHeapSpaceStatistics } from 'node:v8';
import { capYoungGeneration, youngGenerationSemiSpaceMiB } from '../cli/young-generation-cap.ts';

const capped = process.argv.includes('--cap')
  ? capYoungGeneration({
      semiSpaceMiB: youngGenerationSemiSpaceMiB,
      execArgv: process.execArgv,
      nodeOptions: process.env.NODE_OPTIONS,
    })
  : undefined;
const alive: unknown[] = new Array(200_000);
let next = 0;
for (let turn = 0; turn < Number(process.env.WORKLOAD_TURNS ?? 1000); turn++) {
  for (let object = 0; object < 2000; object++) {
    alive[next] = { turn, object, label: `call ${turn}:${object}`, pair: [turn, object] };
    next = (next + 1) % alive.length;
  }
  await new Promise((resolve) => setImmediate(resolve));
}
const newSpace = getHeapSpaceStatistics().find((space) => space.space_name === 'new_space');
process.stdout.write(`${JSON.stringify({ newSpaceBytes: newSpace?.space_size, capped: capped !== undefined })}\n`);
capped?.();
