/**
 * search_file_contents against ripgrep on the generated tree of ~15,000
 * files, side by side in one run: the same pattern and the same matches
 * (ours is started with a match cap above the count, so both print every
 * matching line). Ours is its bin over stdio, driven by the official SDK
 * client; rg is started once per search, as a tool calling it would.
 * Rounds alternate between the two; medians.
 *
 *   node bench/content-search-bench.ts
 */
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { directoryCount, generatedTree, generateTree, median, ourBin } from './generated-tree.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
const searches = [
  { label: 'literal `value = 25;`', pattern: 'value = 25;', regex: false },
  { label: 'regex `value = (7|17);`', pattern: 'value = (7|17);', regex: true },
];

const fileCount = generateTree();
console.log(`Tree: ${fileCount} files in ${directoryCount} directories (${generatedTree})`);
const ripgrep = spawnSync('rg', ['--version'], { encoding: 'utf8' });
const ripgrepVersion = ripgrep.status === 0 ? ripgrep.stdout.split('\n')[0] : undefined;
if (ripgrepVersion === undefined) {
  console.log('ripgrep (rg) is not installed: its column is skipped. Debian: apt-get install -y ripgrep');
}
console.log(
  `Node ${process.version}; ours: ${ourBin.endsWith('.ts') ? 'from source' : 'built bin'}; ${ripgrepVersion ?? 'no rg'}\n`,
);

const transport = new StdioClientTransport({
  command: process.execPath,
  args: [ourBin, generatedTree, '--max-matches', '100000'],
  stderr: 'inherit',
});
const client = new Client({ name: 'bench', version: '1' });
await client.connect(transport);

/** rg with every file searched (no ignore files, hidden files too), one `path:line:text` line per match. */
function runRipgrep(pattern: string, regex: boolean): { ms: number; lines: number; bytes: number } {
  const began = performance.now();
  const result = spawnSync(
    'rg',
    [
      '-uu',
      '--no-heading',
      '--line-number',
      '--color',
      'never',
      ...(regex ? [] : ['--fixed-strings']),
      pattern,
      generatedTree,
    ],
    { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 },
  );
  const ms = performance.now() - began;
  if (result.status !== 0) throw new Error(`rg failed: ${result.stderr}`);
  return { ms, lines: result.stdout.split('\n').length - 1, bytes: Buffer.byteLength(result.stdout) };
}

async function runOurs(pattern: string, regex: boolean): Promise<{ ms: number; lines: number; bytes: number }> {
  const began = performance.now();
  const result = (await client.callTool({
    name: 'search_file_contents',
    arguments: { path: generatedTree, pattern, regex },
  })) as { content: { text: string }[]; isError?: boolean };
  const ms = performance.now() - began;
  const text = result.content[0]?.text ?? '';
  if (result.isError) throw new Error(`search_file_contents failed: ${text}`);
  return { ms, lines: text.split('\n').length, bytes: Buffer.byteLength(text) };
}

console.log(`| search (${rounds} rounds, median) | matches | rg ms | ours ms | ours / rg | output bytes rg / ours |`);
console.log('|---|---:|---:|---:|---:|---|');
for (const search of searches) {
  await runOurs(search.pattern, search.regex);
  const ours: number[] = [];
  const theirs: number[] = [];
  let lines = { ours: 0, rg: 0 };
  let bytes = { ours: 0, rg: 0 };
  for (let round = 0; round < rounds; round++) {
    if (ripgrepVersion !== undefined) {
      const rg = runRipgrep(search.pattern, search.regex);
      theirs.push(rg.ms);
      lines = { ...lines, rg: rg.lines };
      bytes = { ...bytes, rg: rg.bytes };
    }
    const mine = await runOurs(search.pattern, search.regex);
    ours.push(mine.ms);
    lines = { ...lines, ours: mine.lines };
    bytes = { ...bytes, ours: mine.bytes };
  }
  if (ripgrepVersion !== undefined && lines.rg !== lines.ours) {
    throw new Error(`${search.label}: rg printed ${lines.rg} lines and ours ${lines.ours}`);
  }
  const rgMs = ripgrepVersion === undefined ? undefined : median(theirs);
  const ourMs = median(ours);
  console.log(
    `| ${search.label} | ${lines.ours} | ${rgMs?.toFixed(1) ?? 'skipped'} | ${ourMs.toFixed(1)} | ` +
      `${rgMs === undefined ? 'n/a' : `${(ourMs / rgMs).toFixed(2)}x`} | ${ripgrepVersion === undefined ? 'n/a' : bytes.rg} / ${bytes.ours} |`,
  );
}
await client.close();
