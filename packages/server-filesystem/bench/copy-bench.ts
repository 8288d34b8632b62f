/**
 * copy_file against cp, side by side in one run: a 1 GB file, and a tree of
 * 10,000 files in 100 directories. Ours is its bin over stdio, driven by the
 * official SDK client; cp is started once per copy, as a tool calling it
 * would. Rounds alternate which goes first; each copy goes to a new name and
 * is written back with sync, untimed, before the next. Medians, the range, and the
 * mean CPU a copy (from /proc: the server's, and cp's as this process's waited-for
 * children's), with the load average. The data is made in a temporary directory and
 * deleted at the end. BENCH_CASE=file or BENCH_CASE=tree runs one case.
 *
 * ext4 allocates inodes slowly for some minutes after many files were
 * deleted (it passes over recently freed ones, reading their inode table
 * blocks), and every creation of both sides pays for it: run this at least
 * five minutes after other work that deleted thousands of files, tests
 * included, or the tree case measures the file system's state.
 *
 *   node bench/copy-bench.ts
 */
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { median, ourBin } from './generated-tree.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 7);
/** `file` or `tree` to run one case only. */
const caseWanted = process.env.BENCH_CASE;
const fileBytes = 1_000_000_000;
const treeDirectories = 100;
const filesPerDirectory = 100;

const directory = mkdtempSync(join(tmpdir(), 'toolshed-copy-bench-'));
const cleanUp = () => rmSync(directory, { recursive: true, force: true });
process.once('SIGINT', () => {
  cleanUp();
  process.exit(130);
});

/** A file of `bytes` bytes that no file system can store sparsely or compress away. */
function makeLargeFile(path: string, bytes: number): void {
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  let state = 1;
  for (let offset = 0; offset < chunk.length; offset += 4) {
    state = (state * 1103515245 + 12345) >>> 0;
    chunk.writeUInt32LE(state, offset);
  }
  const fd = openSync(path, 'w');
  try {
    for (let written = 0; written < bytes; ) {
      const length = Math.min(chunk.length, bytes - written);
      chunk.writeUInt32LE(written >>> 0, 0);
      written += writeSync(fd, chunk, 0, length);
    }
  } finally {
    closeSync(fd);
  }
}

/** 10,000 small files of 100 to 4,000 bytes, as source trees have. */
function makeTree(path: string): void {
  for (let index = 0; index < treeDirectories; index++) {
    const sub = join(path, `dir-${index}`);
    mkdirSync(sub, { recursive: true });
    for (let file = 0; file < filesPerDirectory; file++) {
      const fd = openSync(join(sub, `file-${file}.ts`), 'w');
      writeSync(fd, `// ${index}/${file}\n${'export const value = 1;\n'.repeat(4 + ((index * 31 + file) % 160))}`);
      closeSync(fd);
    }
  }
}

const ticksPerSecond = 100;
/** CPU from /proc/<pid>/stat in ms: the process's own (user and system), or its waited-for children's. */
function cpuMs(pid: number | 'self', children = false): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const [user, system] = children ? [fields[13], fields[14]] : [fields[11], fields[12]];
  return ((Number(user) + Number(system)) * 1000) / ticksPerSecond;
}

const mean = (values: readonly number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const spread = (values: readonly number[]) => `${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)}`;
const load = () =>
  loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');

function countFiles(path: string): number {
  return readdirSync(path, { recursive: true, withFileTypes: true }).filter((entry) => entry.isFile()).length;
}

try {
  const largeFile = join(directory, 'large.bin');
  const tree = join(directory, 'tree');
  if (caseWanted !== 'tree') makeLargeFile(largeFile, fileBytes);
  makeTree(tree);
  spawnSync('sync');
  const treeFiles = countFiles(tree);
  const cpVersion = spawnSync('cp', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0];
  console.log(
    `Node ${process.version}; ours: ${ourBin.endsWith('.ts') ? 'from source' : 'built bin'}; ${cpVersion}; ` +
      `data in ${directory} (deleted at the end)\n`,
  );

  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [ourBin, directory, '--max-copy-bytes', String(2 * fileBytes)],
    stderr: 'inherit',
  });
  const client = new Client({ name: 'bench', version: '1' });
  await client.connect(transport);

  const serverPid = transport.pid as number;
  let copies = 0;
  interface Timed {
    ms: number;
    cpuMs: number;
  }
  const runCp = (source: string, recursive: boolean): Timed => {
    const destination = join(directory, `cp-${copies++}`);
    const cpu = cpuMs('self', true);
    const began = performance.now();
    const result = spawnSync('cp', [...(recursive ? ['-r'] : []), source, destination]);
    const ms = performance.now() - began;
    const used = cpuMs('self', true) - cpu;
    if (result.status !== 0) throw new Error(`cp failed: ${result.stderr}`);
    check(source, destination, recursive);
    return { ms, cpuMs: used };
  };
  const runOurs = async (source: string, recursive: boolean): Promise<Timed> => {
    const destination = join(directory, `ours-${copies++}`);
    const cpu = cpuMs(serverPid);
    const began = performance.now();
    const result = (await client.callTool({ name: 'copy_file', arguments: { source, destination } })) as {
      content: { text: string }[];
      isError?: boolean;
    };
    const ms = performance.now() - began;
    const used = cpuMs(serverPid) - cpu;
    if (result.isError) throw new Error(`copy_file failed: ${result.content[0]?.text}`);
    check(source, destination, recursive);
    return { ms, cpuMs: used };
  };
  /**
   * The copy is whole; then what the kernel still has to write back is written, untimed, so each copy starts with
   * no earlier copy's write-back competing with it. Copies are kept until the case ends: on this file system,
   * names made right after many were deleted cost several times as much, for cp and for us alike.
   */
  const made: string[] = [];
  const check = (source: string, destination: string, recursive: boolean) => {
    const same = recursive
      ? countFiles(destination) === treeFiles
      : statSync(destination).size === statSync(source).size;
    if (!same) throw new Error(`${destination} is not a whole copy of ${source}`);
    made.push(destination);
    spawnSync('sync');
  };

  const cases = [
    { label: 'a 1 GB file', source: largeFile, recursive: false },
    { label: `a tree of ${treeFiles} files in ${treeDirectories} directories`, source: tree, recursive: true },
  ].filter(({ recursive }) => caseWanted === undefined || caseWanted === (recursive ? 'tree' : 'file'));
  console.log(`Load average ${load()} before`);
  console.log(
    `| copy (${rounds} rounds, alternating) | cp ms, median (range) | copy_file ms, median (range) | copy_file / cp | ` +
      'copy_file / cp in the same round, median (range) | CPU ms a copy, cp / copy_file (mean) | bar |',
  );
  console.log('|---|---:|---:|---:|---:|---:|:---:|');
  for (const { label, source, recursive } of cases) {
    // One untimed copy each, so both start with the source in the page cache.
    runCp(source, recursive);
    await runOurs(source, recursive);
    const cp: Timed[] = [];
    const ours: Timed[] = [];
    for (let round = 0; round < rounds; round++) {
      if (round % 2 === 0) {
        cp.push(runCp(source, recursive));
        ours.push(await runOurs(source, recursive));
      } else {
        ours.push(await runOurs(source, recursive));
        cp.push(runCp(source, recursive));
      }
    }
    for (const destination of made.splice(0)) rmSync(destination, { recursive: true, force: true });
    spawnSync('sync');
    const cpMs = median(cp.map((run) => run.ms));
    const ourMs = median(ours.map((run) => run.ms));
    const cpu = `${mean(cp.map((run) => run.cpuMs)).toFixed(0)} / ${mean(ours.map((run) => run.cpuMs)).toFixed(0)}`;
    // The two copies of a round run back to back: their ratio is spared the drift of the file system's state over
    // the run (a copy's time here moved fivefold between rounds), which the medians of each side are not.
    const paired = ours.map((run, round) => run.ms / (cp[round] as Timed).ms);
    const pairedRange = `${Math.min(...paired).toFixed(2)}–${Math.max(...paired).toFixed(2)}`;
    console.log(
      `| ${label} | ${cpMs.toFixed(1)} (${spread(cp.map((run) => run.ms))}) | ` +
        `${ourMs.toFixed(1)} (${spread(ours.map((run) => run.ms))}) | ${(ourMs / cpMs).toFixed(2)}x | ` +
        `${median(paired).toFixed(2)}x (${pairedRange}) | ${cpu} | ≤ 1.5x |`,
    );
  }
  console.log(`Load average ${load()} after`);
  await client.close();
} finally {
  cleanUp();
}
