import { statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { checkBin } from '@toolshed/mcp-core/testing';
import { describe, expect, it } from 'vitest';

const source = new URL('./cli.ts', import.meta.url).pathname;
const shipped = new URL('../bin/__BIN_NAME__.js', import.meta.url).pathname;

describe('the bin', () => {
  it('passes the checks every bin passes: --help, --version, one line for a bad flag, only JSON-RPC on stdout', async () => {
    expect(await checkBin({ bin: [source] })).toEqual([]);
  });

  it('ships with a shebang, the exec bit and the Node-version check', async () => {
    const text = await readFile(shipped, 'utf8');
    expect(text.startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(text).toContain('needs Node.js 22.14 or newer');
    if (process.platform !== 'win32') expect(statSync(shipped).mode & 0o111).not.toBe(0);
  });
});
