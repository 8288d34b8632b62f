/**
 * directory_tree against its floor, in one process: the floor is the same
 * tree walked with readdirSync (withFileTypes), built as {name, type,
 * children} nodes, serialized as the reference server serializes it
 * (JSON.stringify with an indent of 2), and put into a serialized tools/call
 * answer of the reference's shape: the text block and structuredContent.content. Ours is our server in this process, given the request
 * as a message over an in-memory transport and timed until its answer is
 * serialized as a transport would. Rounds alternate; medians.
 *
 *   node --expose-gc bench/directory-tree-bench.ts
 */
import { type Dirent, readdirSync } from 'node:fs';
import { createInMemoryTransportPair } from '@toolshed/mcp-core';
import { createFilesystemServer } from '../src/index.ts';
import { directoryCount, generatedTree, generateTree, median } from './generated-tree.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 31);

interface TreeNode {
  name: string;
  type: 'file' | 'directory';
  children?: TreeNode[];
}

function walk(directory: string): TreeNode[] {
  return readdirSync(directory, { withFileTypes: true }).map((entry: Dirent) =>
    entry.isDirectory()
      ? { name: entry.name, type: 'directory', children: walk(`${directory}/${entry.name}`) }
      : { name: entry.name, type: 'file' },
  );
}

let nextId = 1;
function floor(): { ms: number; length: number } {
  const began = performance.now();
  const text = JSON.stringify(walk(generatedTree), null, 2);
  const result = { content: [{ type: 'text', text }], structuredContent: { content: text } };
  const message = JSON.stringify({ jsonrpc: '2.0', id: nextId++, result });
  return { ms: performance.now() - began, length: message.length };
}

const fileCount = generateTree();
console.log(`Tree: ${fileCount} files in ${directoryCount} directories (${generatedTree})`);
console.log(`Node ${process.version}; both in this process\n`);

interface Connected {
  /** One directory_tree (of the whole tree unless a path is given), timed until its answer is serialized. */
  tree(path?: string): Promise<{ ms: number; length: number }>;
  close(): Promise<void>;
}

async function connect(): Promise<Connected> {
  const server = createFilesystemServer({ directories: [generatedTree] });
  const [clientSide, serverSide] = createInMemoryTransportPair();
  const waiting = new Map<number, (message: unknown) => void>();
  clientSide.onmessage = (message) => {
    const id = (message as { id?: number }).id;
    if (id !== undefined) waiting.get(id)?.(message);
  };
  await server.connect(serverSide);
  await clientSide.start();
  const request = (method: string, params: Record<string, unknown>): Promise<unknown> => {
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, (message) => {
        waiting.delete(id);
        resolve(message);
      });
      void clientSide.send({ jsonrpc: '2.0', id, method, params } as never);
    });
  };
  await request('initialize', {
    protocolVersion: '2025-11-25',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as never);
  return {
    async tree(path = generatedTree) {
      const began = performance.now();
      const answer = await request('tools/call', { name: 'directory_tree', arguments: { path } });
      const message = JSON.stringify(answer);
      const ms = performance.now() - began;
      const result = (answer as { result?: { isError?: boolean } }).result;
      if (result === undefined || result.isError === true) {
        throw new Error(`directory_tree failed: ${message.slice(0, 500)}`);
      }
      return { ms, length: message.length };
    },
    close: () => clientSide.close(),
  };
}

// One server for the rounds, as a client keeps one: from the second call on
// it reuses the listings of unchanged directories (one lstat each instead of
// open, verify, list). A fresh server each round shows the walk without them;
// its first call, on one small directory, is not timed, so what is timed is
// not a first call's one-time costs (schemas compiled on first use).
const server = await connect();
const times = { floor: [] as number[], ours: [] as number[], fresh: [] as number[] };
const lengths = { floor: 0, ours: 0 };
floor();
await server.tree();
// With --expose-gc, garbage left by setting up (a new server each round) is
// collected before each timed step rather than inside it.
const collect = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
for (let round = 0; round < rounds; round++) {
  collect();
  const measured = floor();
  times.floor.push(measured.ms);
  lengths.floor = measured.length;
  collect();
  const mine = await server.tree();
  times.ours.push(mine.ms);
  lengths.ours = mine.length;
  const fresh = await connect();
  await fresh.tree(`${generatedTree}/dir-0/dir-0/dir-0`);
  collect();
  times.fresh.push((await fresh.tree()).ms);
  await fresh.close();
}
const floorMs = median(times.floor);
const ourMs = median(times.ours);
const freshMs = median(times.fresh);
console.log(`| directory_tree, whole tree (${rounds} rounds, median) | ms | answer, characters | ours / floor |`);
console.log('|---|---:|---:|---:|');
console.log(`| floor: readdirSync walk, JSON.stringify | ${floorMs.toFixed(1)} | ${lengths.floor} | 1.00x |`);
console.log(
  `| ours, one server (listings reused) | ${ourMs.toFixed(1)} | ${lengths.ours} | ${(ourMs / floorMs).toFixed(2)}x |`,
);
console.log(
  `| ours, listings not reused (a new server each round) | ${freshMs.toFixed(1)} | ${lengths.ours} | ${(freshMs / floorMs).toFixed(2)}x |`,
);
await server.close();
