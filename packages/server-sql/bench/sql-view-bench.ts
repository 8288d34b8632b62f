/**
 * The query view in Debian's Chromium: time from mounting the view to its
 * first 50 rows on screen, with a 1,000-row result, against the same table
 * rendered by a view built on the official view SDK (`App` from
 * `@modelcontextprotocol/ext-apps`), both hosted by the official `AppBridge`.
 * Each view marks `result-received` when the tool result reaches it and
 * `rows-rendered` in the first animation frame with rows. Mount to rows is
 * from the frame's own start (its time origin: the navigation to the view's
 * document) and includes the frame's start, the handshake and the host's
 * delivery; result to rows is the view's own work; the host's mount to rows
 * starts earlier, when the host page created the frame. Our view's runtime
 * splits mount to rows into phases (start, handshake, delivery, render).
 * A third frame, the floor, marks both at its first script and draws its
 * first frame: what Chromium takes to start a sandboxed frame here.
 *
 * The browser runs as a user's does, with no test driver attached (a driver
 * holds each new sandboxed frame until it has set it up, about 35 ms a frame
 * here): the host page runs the rounds itself and posts each view's marks to
 * the bench. Each view is mounted first in a new host page (the page's
 * first view) and then in a warm page, one that has shown views before and
 * still shows the last. Rounds alternate between the frames; medians and
 * spread, the load average, and the bytes of each view.
 *
 *   pnpm --filter @toolshed/server-sql bench:view
 */
import { loadavg } from 'node:os';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import {
  bundleAppBridgeHost,
  createViewTimeReport,
  runUnattachedViewRounds,
  type ViewStep,
} from '@toolshed/view-testing';
import { rolldown } from 'rolldown';
import { createSampleDatabase } from '../src/__fixtures__/sample-database.ts';
import { thousandRows } from '../src/__fixtures__/thousand-rows.ts';
import { createSqlServer } from '../src/index.ts';
import { queryViewHtml } from '../src/query-view.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 21);

async function officialView(): Promise<string> {
  const bundle = await rolldown({
    input: new URL('./official-app-view.ts', import.meta.url).pathname,
    platform: 'browser',
    logLevel: 'silent',
  });
  const { output } = await bundle.generate({ format: 'iife', minify: true });
  await bundle.close();
  return `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${output[0].code}</script></body></html>`;
}

const sample = createSampleDatabase();
const server = createSqlServer({ databases: sample.path });
const client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory', ui: true });
const toolInput = { sql: thousandRows, max_rows: 1000 };
const toolResult = await client.callTool('query', toolInput);
/** A frame that renders nothing and answers nobody: Chromium's own share of mount to rows. */
const floorFrame =
  '<!doctype html><html><body><script>performance.mark("result-received");' +
  'requestAnimationFrame(() => { performance.mark("rows-rendered"); setTimeout(() => performance.mark("rows-painted")); });' +
  '</script></body></html>';
const views = { toolshed: queryViewHtml(), 'official SDK': await officialView(), floor: floorFrame };
type ViewName = keyof typeof views;
const order: ViewName[] = ['toolshed', 'official SDK', 'floor'];
const inTurn = (round: number) => (round % 2 === 1 ? order : [...order].reverse());

// The first round of each warms the browser's caches; it is not counted.
const steps: ViewStep[] = [];
for (let round = 0; round < rounds; round++)
  for (const view of inTurn(round))
    steps.push({ view, newPage: true, label: round > 0 ? `${view}, new page` : undefined });
for (let round = 0; round < rounds; round++)
  for (const view of inTurn(round))
    steps.push({
      view,
      newPage: round === 0 && view === inTurn(0)[0],
      label: round > 0 ? `${view}, warm page` : undefined,
    });

const loadBefore = loadavg();
const report = createViewTimeReport();
try {
  const results = await runUnattachedViewRounds({
    hostScript: await bundleAppBridgeHost(),
    views,
    toolInput,
    toolResult,
    steps,
  });
  for (const { label, times } of results) report.add(label, times);
} finally {
  await client.close();
  await server.close();
  sample.remove();
}
const loadAfter = loadavg();

for (const line of report.lines()) console.log(line);
for (const [name, html] of Object.entries(views))
  console.log(`${name}: view ${(Buffer.byteLength(html) / 1024).toFixed(1)} KB`);
console.log(
  `load average ${loadBefore.map((value) => value.toFixed(2)).join(' ')} before, ${loadAfter.map((value) => value.toFixed(2)).join(' ')} after`,
);
