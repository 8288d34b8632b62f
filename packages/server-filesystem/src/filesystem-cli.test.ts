import { optionsTableProblems } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { filesystemCli } from './filesystem-cli.ts';

it('documents every option in the README, as the schema has it', () => {
  expect(optionsTableProblems(filesystemCli, new URL('../README.md', import.meta.url))).toEqual([]);
});
