/**
 * Prints the totals of the unit tests (vitest's JSON report) and the pack check
 * as one plain closing line: `tests: N passed, N failed, N skipped`.
 */
import { existsSync, readFileSync } from 'node:fs';

function readReport<T>(name: string): T | undefined {
  const path = new URL(`../${name}`, import.meta.url);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as T) : undefined;
}

const unit = readReport<{
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
}>('.vitest-results.json');
const pack = readReport<{ passed: number; failed: number }>('.pack-check-results.json');
const passed = (unit?.numPassedTests ?? 0) + (pack?.passed ?? 0);
// A missing report means that step never finished: count it as a failure.
const failed = (unit?.numFailedTests ?? 1) + (pack?.failed ?? 1);
const skipped = (unit?.numPendingTests ?? 0) + (unit?.numTodoTests ?? 0);
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
