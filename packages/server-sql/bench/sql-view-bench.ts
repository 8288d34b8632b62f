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
 * first frame: what Chromium (and the test driver's set-up of each new
 * frame) takes to start a sandboxed frame here. Each is mounted in a new
 * host page and in a warm one that has shown the same view before and still
 * shows it. Rounds alternate between the frames; medians and spread, the
 * load average, and the bytes of each view.
 *
 *   pnpm --filter @toolshed/server-sql bench:view
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg } from 'node:os';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import {
  bundleAppBridgeHost,
  createViewTimeReport,
  launchChromium,
  readViewRenderTimes,
  waitForViewFrame,
} from '@toolshed/view-testing';
import type { Page } from 'playwright-core';
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
const hostScript = await bundleAppBridgeHost();
const site = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html><html><body><script>${hostScript}</script></body></html>`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
const browser = await launchChromium();
const toolInput = { sql: thousandRows, max_rows: 1000 };
const toolResult = await client.callTool('query', toolInput);
/** A frame that renders nothing and answers nobody: Chromium's own share of mount to rows. */
const floorFrame =
  '<!doctype html><html><body><script>performance.mark("result-received");' +
  'requestAnimationFrame(() => { performance.mark("rows-rendered"); setTimeout(() => performance.mark("rows-painted")); });' +
  '</script></body></html>';
const views = { toolshed: queryViewHtml(), 'official SDK': await officialView(), floor: floorFrame };
const report = createViewTimeReport();

type ViewName = keyof typeof views;
const order: ViewName[] = ['toolshed', 'official SDK', 'floor'];

/** Mounts `name` in `page` (the reference host page) and reads its times once its rows are on screen. */
async function mountAndTime(page: Page, name: ViewName) {
  const before = new Set(page.frames());
  await page.evaluate((input) => (window as never as { mountView(input: unknown): Promise<void> }).mountView(input), {
    html: views[name],
    toolInput,
    toolResult,
  });
  const frame = await waitForViewFrame(page, (candidate) => !before.has(candidate));
  return readViewRenderTimes(frame, { page, timeoutMs: 10_000 });
}

// A host that shows many views keeps its page, and the views before stay on screen: in the warm pages the
// AppBridge has handled a view before and the last view's frame is still there.
const warmPages = new Map<ViewName, Page>();
const loadBefore = loadavg();
try {
  for (const name of order) {
    const page = await browser.context.newPage();
    await page.goto(base);
    await mountAndTime(page, name);
    warmPages.set(name, page);
  }
  for (let round = 0; round < rounds; round++) {
    for (const name of round % 2 === 1 ? order : [...order].reverse()) {
      const page = await browser.context.newPage();
      await page.goto(base);
      const times = await mountAndTime(page, name);
      // The first round of each warms the browser's caches; it is not counted.
      if (round > 0) report.add(`${name}, new page`, times);
      await page.close();
      const warm = warmPages.get(name) as Page;
      // Only the last view stays, moved beside the next: Chromium draws no animation frame for a frame scrolled
      // out of sight, and a page of hundreds of frames would measure something else.
      await warm.evaluate(() => {
        const frames = [...document.querySelectorAll('iframe')];
        for (const frame of frames.slice(0, -1)) frame.remove();
        for (const frame of frames.slice(-1)) frame.style.cssText += ';position:absolute;top:0;left:740px';
      });
      // The page in front: Chromium runs no animation frame in a tab behind another.
      await warm.bringToFront();
      const warmTimes = await mountAndTime(warm, name);
      if (round > 0) report.add(`${name}, warm page`, warmTimes);
    }
  }
} finally {
  await browser.close();
  site.close();
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
