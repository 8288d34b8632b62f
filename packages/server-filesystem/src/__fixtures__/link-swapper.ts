import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { expect } from 'vitest';

/** A process that keeps swapping a name between a harmless entry and a link leading outside. */
export interface LinkSwapper {
  stop(): void;
}

// The swapper runs in its own process, truly concurrent with the server.
const swappers = {
  // A file named `racy` flips between a harmless file and a link to `target`.
  file: `const fs = require('node:fs');
const [racy, target] = process.argv.slice(1);
const file = racy + '.file', link = racy + '.link';
for (;;) {
  try {
    fs.rmSync(file, { force: true }); fs.writeFileSync(file, 'harmless'); fs.renameSync(file, racy);
    fs.rmSync(link, { force: true }); fs.symlinkSync(target, link); fs.renameSync(link, racy);
  } catch {}
}`,
  // A directory named `racy` (holding inner/file.txt) flips between itself and a link to `target`.
  directory: `const fs = require('node:fs');
const [racy, target] = process.argv.slice(1);
const parked = racy + '.parked', link = racy + '.link';
for (;;) {
  try {
    fs.rmSync(racy, { force: true });
    fs.mkdirSync(parked + '/inner', { recursive: true });
    fs.writeFileSync(parked + '/inner/file.txt', 'harmless');
    fs.renameSync(parked, racy);
  } catch {}
  try {
    fs.rmSync(parked, { force: true, recursive: true });
    fs.rmSync(link, { force: true }); fs.symlinkSync(target, link);
    fs.renameSync(racy, parked); fs.renameSync(link, racy);
  } catch {}
}`,
};

/** Starts swapping `racy` and waits until it exists. */
export async function startLinkSwapper(
  kind: keyof typeof swappers,
  racy: string,
  target: string,
): Promise<LinkSwapper> {
  const child: ChildProcess = spawn(process.execPath, ['-e', swappers[kind], racy, target], { stdio: 'ignore' });
  // A new Node process may take seconds to start on a busy machine.
  await expect.poll(() => existsSync(racy), { timeout: 30_000 }).toBe(true);
  return { stop: () => child.kill('SIGKILL') };
}

/**
 * Runs `attempt` at least `minimum` times, and on until it has seen both outcomes (a busy machine may schedule the
 * swapper rarely), at most `maximum` times; returns how often each was seen.
 */
export async function raceUntilBothSeen(
  attempt: (index: number) => Promise<'done' | 'refused'>,
  minimum = 200,
  maximum = 20_000,
): Promise<{ done: number; refused: number }> {
  const seen = { done: 0, refused: 0 };
  for (let index = 0; index < maximum && (index < minimum || seen.done === 0 || seen.refused === 0); index++) {
    seen[await attempt(index)]++;
  }
  return seen;
}
