import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';

const probe = new URL('./__fixtures__/parser-load-probe.ts', import.meta.url).pathname;

it('a start, the tool list and a text read load no document parser', () => {
  // A process of its own, so nothing another test loaded counts.
  const printed = execFileSync(process.execPath, [probe], { encoding: 'utf8' });
  expect(JSON.parse(printed.trim().split('\n').at(-1) as string)).toEqual([]);
}, 60_000);
