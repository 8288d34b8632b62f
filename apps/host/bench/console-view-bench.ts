/**
 * The SQL view with a 1,000-row result in Debian's Chromium, mounted by the
 * console's own view host (a try-it result page: the frame loads the view
 * from the console's view listener, the console hands it the input and the
 * result) against the same view mounted by the official `AppBridge` from
 * `@modelcontextprotocol/ext-apps` (the reference host of the view tests,
 * the view in `srcdoc`). The view marks `result-received` and
 * `rows-rendered` (in the first animation frame with rows). Mount to rows
 * is from the frame's own start (its navigation) and includes the frame's
 * load, the handshake and the host's delivery; result to rows is the view's
 * own work; the host's mount to rows starts when the host's script created
 * the frame (the console's starts after its page is parsed), and the
 * page's start to rows from the console page's own navigation. The view's
 * runtime splits mount to rows into phases (start, handshake, delivery,
 * render). Rounds alternate between the hosts; the first round of each is
 * not counted; medians and spread, and the load average before and after.
 *
 *   pnpm --filter @toolshed/host bench:console-view
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  bundleAppBridgeHost,
  createViewTimeReport,
  launchChromium,
  medianAndSpread,
  readViewRenderTimes,
  waitForViewFrame,
} from '@toolshed/view-testing';
import Database from 'better-sqlite3';
import { parseHostConfig } from '../src/config/load-config.ts';
import { ConsoleCalls } from '../src/console/console-calls.ts';
import { serveConsole } from '../src/console/console-server.ts';
import { createTokenStore } from '../src/console/console-token-store.ts';
import { createHost } from '../src/create-host.ts';

const rounds = Number(process.env.BENCH_ROUNDS ?? 21);
const thousandRows =
  'WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1000) SELECT i, i * i AS square FROM n';
const directory = mkdtempSync(join(tmpdir(), 'toolshed-console-view-bench-'));
const database = join(directory, 'shop.db');
new Database(database).close();
const host = createHost(
  parseHostConfig(
    JSON.stringify({
      toolshed: { audit: { path: join(directory, 'audit.jsonl') } },
      mcpServers: { '@toolshed/server-sql': { databases: database } },
    }),
    join(directory, 'toolshed.json'),
  ),
  { log: () => {}, state: join(directory, 'state.db') },
);
await host.start();
const tokens = createTokenStore(host.store);
const token = (await tokens.create('bench', 'view bench')).secret;
const handle = await serveConsole({ host, tokens });
const toolInput = { sql: thousandRows, max_rows: 1000 };

// The reference: the same view, as read through the host, and the same result, handed over by the AppBridge.
const reader = new ConsoleCalls(host);
const view = await reader.readView('bench', 'ui://toolshed-sql/query');
const toolResult = await reader.callFromView('bench', 'sql_query', toolInput);
await reader.close();
const hostScript = await bundleAppBridgeHost();
const site = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
  response.end(`<!doctype html><html><body><script>${hostScript}</script></body></html>`);
});
await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
const reference = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;

const browser = await launchChromium();
const login = await browser.context.newPage();
await login.goto(`${handle.url}login`);
await login.getByLabel('Token').fill(token);
await login.getByRole('button', { name: 'Log in' }).click();
await login.waitForURL(`${handle.url}servers`);
await login.goto(`${handle.url}try/sql_query`);
await login.locator('[name="/sql"]').fill(thousandRows);
await login.locator('[name="/max_rows"]').fill('1000');
await login.getByRole('button', { name: 'Call sql_query' }).click();
await login.waitForURL(/\/calls\//);
await login.waitForSelector('[data-view-mount]');
const callPage = login.url();
await login.close();

type HostName = 'console host' | 'AppBridge';
const report = createViewTimeReport();
/** The console page's own start (its navigation, the page drawn by the console) to the view's rows. */
const pageStartToRows: number[] = [];

const loadBefore = loadavg();
try {
  for (let round = 0; round < rounds; round++) {
    const order: HostName[] = round % 2 === 1 ? ['console host', 'AppBridge'] : ['AppBridge', 'console host'];
    for (const name of order) {
      const page = await browser.context.newPage();
      if (name === 'console host') {
        await page.goto(callPage);
      } else {
        await page.goto(reference);
        await page.evaluate(
          (input) => (globalThis as never as { mountView(input: unknown): Promise<void> }).mountView(input),
          { html: view?.html, toolInput, toolResult },
        );
      }
      const frame = await waitForViewFrame(
        page,
        (candidate) => name === 'AppBridge' || candidate.url().includes('/views/'),
      );
      const times = await readViewRenderTimes(frame, { page });
      if (round > 0) report.add(name, times);
      if (round > 0 && name === 'console host') {
        pageStartToRows.push(times.rowsRenderedAt - (await page.evaluate(() => performance.timeOrigin)));
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  site.close();
  await handle.close();
  await host.close();
  rmSync(directory, { recursive: true, force: true });
}
const loadAfter = loadavg();

for (const line of report.lines()) console.log(line);
console.log(`console host: the page's start to rows ${medianAndSpread(pageStartToRows)}`);
console.log(
  `load average ${loadBefore.map((value) => value.toFixed(2)).join(' ')} before, ${loadAfter.map((value) => value.toFixed(2)).join(' ')} after; view ${((view?.html.length ?? 0) / 1024).toFixed(1)} KB`,
);
