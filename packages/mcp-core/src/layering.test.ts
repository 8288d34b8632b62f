import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { expect, it } from 'vitest';

const root = new URL('.', import.meta.url).pathname;

/**
 * What each part of the engine may not import: imports run down the layers
 * (messages → engine → adapters of the two eras → transports → the server
 * that composes them → CLI and testing kits), never up.
 */
const forbidden: Record<string, readonly string[]> = {
  messages: ['engine', 'session', 'modern', 'transports', 'server', 'cli', 'testing'],
  errors: ['engine', 'session', 'modern', 'transports', 'server', 'cli', 'testing'],
  protocol: ['engine', 'session', 'modern', 'transports', 'server', 'cli', 'testing'],
  engine: ['session', 'modern', 'transports', 'server', 'cli', 'testing'],
  tools: ['session', 'modern', 'transports', 'server', 'cli', 'testing'],
  results: ['engine', 'session', 'modern', 'transports', 'server', 'cli', 'testing'],
  prompts: ['session', 'modern', 'transports', 'server', 'cli', 'testing'],
  resources: ['session', 'modern', 'transports', 'server', 'cli', 'testing'],
  apps: ['session', 'modern', 'transports', 'server', 'cli', 'testing'],
  // Request telemetry sits beside the engine: the server picks it, and the CLI kit starts it.
  telemetry: ['session', 'modern', 'transports', 'server', 'cli', 'testing'],
  session: ['modern', 'server', 'cli', 'testing'],
  modern: ['session', 'server', 'cli', 'testing'],
  transports: ['session', 'cli', 'testing'],
  server: ['cli', 'testing'],
};

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name);
    if (entry.isDirectory()) return entry.name === '__fixtures__' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

it('keeps every import running down the layers', () => {
  const upward: string[] = [];
  for (const file of sourceFiles(root)) {
    const layer = relative(root, file).split(sep)[0] ?? '';
    const banned = forbidden[layer];
    if (banned === undefined) continue;
    for (const [, target] of readFileSync(file, 'utf8').matchAll(/from '((?:\.\.?\/)+[^']+)'/g)) {
      const imported = relative(root, join(file, '..', target as string)).split(sep)[0] ?? '';
      if (banned.includes(imported)) upward.push(`${relative(root, file)} → ${target}`);
    }
  }
  expect(upward).toEqual([]);
});
