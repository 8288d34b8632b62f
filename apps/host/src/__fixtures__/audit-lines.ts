import { readFileSync } from 'node:fs';

/** The host's JSONL audit lines, read once the current turn of the event loop is over, when the host writes them. */
export async function auditLines(path: string): Promise<Record<string, unknown>[]> {
  await new Promise((resolve) => setImmediate(resolve));
  return readFileSync(path, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
