import { optionsTableProblems } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { sqlCli } from './sql-cli.ts';

it('documents every option in the README, as the schema has it', () => {
  expect(optionsTableProblems(sqlCli, new URL('../README.md', import.meta.url))).toEqual([]);
});
