/**
 * Prints the test totals as one plain closing line, `tests: N passed, N failed, N skipped`,
 * from the JSON report vitest wrote beside its own summary.
 */
import { existsSync, readFileSync } from 'node:fs';

const reportPath = new URL('../.vitest-results.json', import.meta.url);
if (!existsSync(reportPath)) {
  console.log('tests: 0 passed, 1 failed (vitest wrote no report)');
  process.exit(1);
}
const report = JSON.parse(readFileSync(reportPath, 'utf8')) as {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
};
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
