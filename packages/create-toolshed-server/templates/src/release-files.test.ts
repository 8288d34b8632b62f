/**
 * What the README, the MCP Registry and bundles say is generated from the options schema: these fail when it is
 * out of date. `__RUN__ run docs` rewrites the options table and server.json.
 */
import { readFileSync } from 'node:fs';
import { readPackageManifest, readProjectConfig, serverJsonProblems, writeServerJsonFiles } from '@toolshed/dev';
import { optionsTableProblems } from '@toolshed/mcp-core/testing';
import { expect, it } from 'vitest';
import { serverCli } from './server-cli.ts';

const root = new URL('..', import.meta.url).pathname;

it('has the README options table of the current options', () => {
  expect(optionsTableProblems(serverCli, new URL('../README.md', import.meta.url))).toEqual([]);
});

it('has a server.json that is up to date and that the MCP Registry takes', async () => {
  expect(await writeServerJsonFiles({ root, servers: readProjectConfig(root).servers, check: true })).toBe(0);
  const entry = JSON.parse(readFileSync(new URL('../server.json', import.meta.url), 'utf8'));
  expect(serverJsonProblems(entry, readPackageManifest(root))).toEqual([]);
});
