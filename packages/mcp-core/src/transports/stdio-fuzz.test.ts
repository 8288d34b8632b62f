import { afterAll, describe, expect, it } from 'vitest';
import { initializeFrame, spawnStdioPeer } from '../__fixtures__/stdio-peer.ts';

/** A small seeded generator, so that a failing run can be replayed. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** One frame (a line without its newline) and what the server must answer to it. */
interface Frame {
  line: string;
  /** The id the answer must carry: null for unreadable frames, undefined for no answer. */
  answerId: string | number | null | undefined;
}

const seed = Number(process.env.FUZZ_SEED ?? 20261122);
const random = createRandom(seed);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const methods = [
  'ping',
  'tools/list',
  'tools/call',
  'logging/setLevel',
  'resources/list',
  'nope',
  '',
  'rpc.x',
  'initialize',
];
let nextId = 1;

function randomValue(depth = 0): unknown {
  const kind = Math.floor(random() * (depth > 3 ? 5 : 8));
  switch (kind) {
    case 0:
      return null;
    case 1:
      return random() < 0.5;
    case 2:
      return Math.floor(random() * 2 ** 40) * (random() < 0.5 ? -1 : 1);
    case 3:
      return random() * 1e6;
    case 4:
      return String.fromCharCode(
        ...Array.from({ length: Math.floor(random() * 20) }, () => Math.floor(random() * 0xd7ff)),
      );
    case 5:
      return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(depth + 1));
    default:
      return Object.fromEntries(
        Array.from({ length: Math.floor(random() * 4) }, (_, index) => [`k${index}`, randomValue(depth + 1)]),
      );
  }
}

const generators: ((initialized: boolean) => Frame)[] = [
  // Random bytes, made line-safe; '#' first so it is never valid JSON.
  () => ({
    line: `#${Buffer.from(Array.from({ length: Math.floor(random() * 200) }, () => Math.floor(random() * 256)))
      .toString('latin1')
      .replace(/[\n]/g, ' ')}`,
    answerId: null,
  }),
  // A valid request cut short.
  () => {
    const text = JSON.stringify({
      jsonrpc: '2.0',
      id: nextId++,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'hi' } },
    });
    return { line: text.slice(0, 1 + Math.floor(random() * (text.length - 2))), answerId: null };
  },
  // JSON that is not an object.
  () => ({ line: JSON.stringify(pick([1, 'str', true, null, 3.5])), answerId: null }),
  // Wrong member types: the id is unreadable, so the answer carries id null.
  () => ({
    line: JSON.stringify({
      jsonrpc: '2.0',
      id: pick([null, 1.5, true, { a: 1 }, [1], 2 ** 60]),
      method: pick(methods),
    }),
    answerId: null,
  }),
  // Wrong jsonrpc, method or params types with a readable id: answered with that id.
  () => {
    const id = nextId++;
    const broken = pick([
      { jsonrpc: '1.0', id, method: 'ping' },
      { jsonrpc: 2, id, method: 'ping' },
      { jsonrpc: '2.0', id, method: 12 },
      { jsonrpc: '2.0', id, method: 'ping', params: 'x' },
      { jsonrpc: '2.0', id, method: 'ping', params: [1, 2] },
      { jsonrpc: '2.0', id },
    ]);
    return { line: JSON.stringify(broken), answerId: id };
  },
  // Deep nesting inside the arguments of a call.
  () => {
    const id = nextId++;
    const depth = 1000 + Math.floor(random() * 20_000);
    const nested = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    return {
      line: `{"jsonrpc":"2.0","id":${id},"method":"tools/call","params":{"name":"echo","arguments":{"text":${nested}}}}`,
      answerId: id,
    };
  },
  // Deep nesting as the whole frame.
  () => {
    const depth = 1000 + Math.floor(random() * 50_000);
    return { line: `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`, answerId: null };
  },
  // Huge string ids and huge strings.
  () => {
    const id = `id-${nextId++}-${'z'.repeat(Math.floor(random() * 50_000))}`;
    return {
      line: JSON.stringify({
        jsonrpc: '2.0',
        id,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text: 'w'.repeat(Math.floor(random() * 100_000)) } },
      }),
      answerId: id,
    };
  },
  // Any method with random params.
  () => {
    const id = random() < 0.5 ? nextId++ : `s${nextId++}`;
    const params =
      random() < 0.8 ? { name: pick(['echo', 'add', 'fail', 'nope', '']), arguments: randomValue() } : randomValue();
    const frame: Record<string, unknown> = { jsonrpc: '2.0', id, method: pick(methods) };
    if (params !== null && typeof params === 'object' && !Array.isArray(params)) frame.params = params;
    return { line: JSON.stringify(frame), answerId: id };
  },
  // Notifications: never answered.
  () => ({
    line: JSON.stringify({
      jsonrpc: '2.0',
      method: pick(['notifications/cancelled', 'notifications/x', 'notifications/initialized']),
      params: { requestId: Math.floor(random() * 100) },
    }),
    answerId: undefined,
  }),
  // Batches: refused whole in 2025-11-25 and before initialize.
  () => ({ line: JSON.stringify([{ jsonrpc: '2.0', id: nextId++, method: 'ping' }, 'x']), answerId: null }),
  // Responses to requests the server never sent: ignored.
  () => ({ line: JSON.stringify({ jsonrpc: '2.0', id: nextId++, result: randomValue() }), answerId: undefined }),
];

describe('stdio fuzzing', () => {
  const peer = spawnStdioPeer();
  afterAll(() => {
    peer.child.kill('SIGKILL');
  });

  it(`survives 10,000 hostile frames and answers each request-shaped one (seed ${seed})`, async () => {
    const frames: Frame[] = [];
    for (let index = 0; index < 10_000; index++) frames.push(pick(generators)(index >= 5_000));
    // A few lines over the 4 MiB cap.
    for (let index = 0; index < 3; index++)
      frames.splice(2_000 * (index + 1), 0, { line: `"${'q'.repeat(4.5 * 1024 * 1024)}"`, answerId: null });

    const before = frames.slice(0, 5_000);
    const after = frames.slice(5_000);
    for (const frame of before) await peer.write(`${frame.line}\n`);
    await peer.write(initializeFrame);
    for (const frame of after) await peer.write(`${frame.line}\n`);

    const expected = frames.filter((frame) => frame.answerId !== undefined);
    const expectedCount = expected.length + 1; // and the initialize
    // Limits that only a server that stopped answering reaches: a loaded machine takes several times a quiet one's 30 s.
    await peer.waitFor((messages) => messages.length >= expectedCount, 240_000);
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(peer.child.exitCode).toBeNull();
    expect(peer.strayStdout).toEqual([]);
    expect(peer.messages).toHaveLength(expectedCount);
    for (const message of peer.messages) {
      expect(message.jsonrpc).toBe('2.0');
      if ('error' in message) {
        const error = message.error as { code: unknown; message: unknown };
        expect(Number.isInteger(error.code)).toBe(true);
        expect(typeof error.message).toBe('string');
        expect(error.message).not.toMatch(/\n\s+at |node_modules|\/work\//);
      } else {
        expect(message.result).toBeTypeOf('object');
      }
    }
    const nullAnswers = peer.messages.filter((message) => message.id === null).length;
    expect(nullAnswers).toBe(expected.filter((frame) => frame.answerId === null).length);
    const answered = new Set(peer.messages.map((message) => message.id));
    for (const frame of expected) if (frame.answerId !== null) expect(answered.has(frame.answerId)).toBe(true);

    expect(peer.specViolations()).toEqual([]);
    const normal = await peer.request('final', 'tools/call', { name: 'add', arguments: { a: 40, b: 2 } });
    expect(normal).toEqual({
      jsonrpc: '2.0',
      id: 'final',
      result: { content: [{ type: 'text', text: '{"sum":42}' }], structuredContent: { sum: 42 } },
    });
  }, 300_000);
});
