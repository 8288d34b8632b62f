/**
 * The query view in Debian's Chromium: time from mounting the view (the
 * frame created) to its first 50 rows on screen, with a 1,000-row result,
 * against the same table rendered by a view built on the official view SDK
 * (`App` from `@modelcontextprotocol/ext-apps`), both hosted by the official
 * `AppBridge`. Each view marks `result-received` when the tool result
 * reaches it and `rows-rendered` after the first animation frame with rows,
 * both from the frame's own start: mount to rows is the whole (frame start,
 * handshake and the host's delivery included), result to rows the view's
 * own work. A third frame, the floor, marks both at its first script and
 * draws its first frame: what Chromium alone takes to start a sandboxed
 * frame here. Rounds alternate between the frames; medians and spread. Also
 * the bytes of each view.
 *
 *   pnpm --filter @toolshed/server-sql bench:view
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connectTestClient } from '@toolshed/mcp-core/testing';
import { bundleAppBridgeHost, launchChromium } from '@toolshed/view-testing';
import { rolldown } from 'rolldown';
import { createSampleDatabase } from '../src/__fixtures__/sample-database.ts';
import { thousandRows } from '../src/__fixtures__/thousand-rows.ts';
import { createSqlServer } from '../src/index.ts';
import { queryViewHtml } from '../src/query-view.ts';

const rounds = 21;

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

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
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
  'requestAnimationFrame(() => performance.mark("rows-rendered"));</script></body></html>';
const views = { toolshed: queryViewHtml(), 'official SDK': await officialView(), floor: floorFrame };
const times: Record<string, { mount: number[]; result: number[] }> = {
  toolshed: { mount: [], result: [] },
  'official SDK': { mount: [], result: [] },
  floor: { mount: [], result: [] },
};

try {
  for (let round = 0; round < rounds; round++) {
    const order =
      round % 2 === 0
        ? (['toolshed', 'official SDK', 'floor'] as const)
        : (['floor', 'official SDK', 'toolshed'] as const);
    for (const name of order) {
      const page = await browser.context.newPage();
      await page.goto(base);
      await page.evaluate(
        (input) => (window as never as { mountView(input: unknown): Promise<void> }).mountView(input),
        {
          html: views[name],
          toolInput,
          toolResult,
        },
      );
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      if (frame === undefined) throw new Error('no view frame');
      const marks = await frame.waitForFunction(
        () => {
          const rendered = performance.getEntriesByName('rows-rendered')[0]?.startTime;
          const received = performance.getEntriesByName('result-received')[0]?.startTime;
          return rendered === undefined || received === undefined ? undefined : { rendered, received };
        },
        null,
        { timeout: 10_000 },
      );
      const { rendered, received } = (await marks.jsonValue()) as { rendered: number; received: number };
      // The first round of each warms the browser's caches; it is not counted.
      if (round > 0) {
        times[name]?.mount.push(rendered);
        times[name]?.result.push(rendered - received);
      }
      await page.close();
    }
  }
} finally {
  await browser.close();
  site.close();
  await client.close();
  await server.close();
  sample.remove();
}

function spread(values: number[]): string {
  const sorted = [...values].sort((a, b) => a - b);
  return `median ${median(values).toFixed(1)} ms (min ${sorted[0]?.toFixed(1)}, max ${sorted.at(-1)?.toFixed(1)})`;
}

for (const [name, { mount, result }] of Object.entries(times)) {
  const bytes = Buffer.byteLength(views[name as keyof typeof views]);
  console.log(
    `${name.padEnd(13)} mount to rows ${spread(mount)}; result to rows ${spread(result)}; ${mount.length} rounds; view ${(bytes / 1024).toFixed(1)} KB`,
  );
}
