import { optionsTableProblems } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { weatherCli } from './weather-cli.ts';

it('documents every option in the README, as the schema has it', () => {
  expect(optionsTableProblems(weatherCli, new URL('../README.md', import.meta.url))).toEqual([]);
});
