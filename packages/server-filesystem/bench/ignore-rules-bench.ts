/**
 * What following ignore files costs search_file_contents: a copy of the
 * generated tree with a root .gitignore of ten typical patterns and one more
 * below, searched with the filter on and with includeIgnored: true, calls
 * alternating, medians. Once with name patterns only (`*.log`,
 * `node_modules/`), once with some tied to a path (`/build`, `**\/tmp/**`).
 * In process, over the in-memory transport; the copy is deleted at the end.
 *
 *   node bench/ignore-rules-bench.ts
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { createFilesystemServer } from '../src/index.ts';
import { generatedTree, generateTree, median } from './generated-tree.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 21);
const ruleSets = {
  'name patterns only': 'node_modules/\ndist/\n*.log\ncoverage/\n.env\nbuild/\ntmp/\n*.min.js\n!keep.log\n.DS_Store\n',
  'some tied to a path':
    'node_modules/\ndist/\n*.log\ncoverage/\n.env\n/build\n**/tmp/**\n*.min.js\n!keep.log\n.DS_Store\n',
};

generateTree();
const base = mkdtempSync(join(tmpdir(), 'toolshed-ignore-bench-'));
try {
  const tree = join(base, 'tree');
  cpSync(generatedTree, tree, { recursive: true });
  writeFileSync(join(tree, 'dir-3', '.gitignore'), 'generated/\n*.snap\n');
  console.log(`Node ${process.version}; ${rounds} rounds; a copy of the generated tree in ${base}\n`);
  console.log('| root .gitignore | filter on ms | includeIgnored ms | on / off | matches |');
  console.log('|---|---:|---:|---:|---:|');
  for (const [label, rules] of Object.entries(ruleSets)) {
    writeFileSync(join(tree, '.gitignore'), rules);
    const server = createFilesystemServer({ directories: [tree], limits: { maxMatches: 100_000 } });
    const client = await connectTestClient({ server }, { client: 'v1', transport: 'memory' });
    const time = async (includeIgnored: boolean) => {
      const began = performance.now();
      const result = await client.callTool('search_file_contents', {
        path: tree,
        pattern: 'value = 25;',
        includeIgnored,
      });
      const ms = performance.now() - began;
      if (result.isError) throw new Error(JSON.stringify(result.content));
      return { ms, matches: (result.structuredContent as { matches: unknown[] }).matches.length };
    };
    await time(false);
    await time(true);
    const on: number[] = [];
    const off: number[] = [];
    let matches = 0;
    for (let round = 0; round < rounds; round++) {
      const filtered = await time(false);
      const everything = await time(true);
      if (filtered.matches !== everything.matches) throw new Error('the rules left out a file that matches');
      on.push(filtered.ms);
      off.push(everything.ms);
      matches = filtered.matches;
    }
    console.log(
      `| ${label} | ${median(on).toFixed(1)} | ${median(off).toFixed(1)} | ${(median(on) / median(off)).toFixed(2)}x | ${matches} |`,
    );
    await client.close();
    await server.close();
  }
} finally {
  rmSync(base, { recursive: true, force: true });
}
