import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromiumBinary, chromiumSwitches } from './chromium-browser.ts';
import { type ViewMarks, type ViewRenderTimes, viewRenderTimesFromMarks } from './view-render-times.ts';

/** One mount: `view` (a key of the views) in a new host page or in the page of the step before. */
export interface ViewStep {
  view: string;
  newPage: boolean;
  /** Where the step's times go; a step without one (a warm-up) is not returned. */
  label?: string | undefined;
}

export interface UnattachedViewRoundsOptions {
  /** The host page's script: defines `window.mountView({ html, toolInput, toolResult })` and marks `view-mount`. */
  hostScript: string;
  /** Each view's HTML by name; every view marks `result-received`, `rows-rendered` and `rows-painted`. */
  views: Record<string, string>;
  toolInput: Record<string, unknown>;
  toolResult: unknown;
  steps: readonly ViewStep[];
  /** The longest wait for one step's marks; past it the run fails. */
  stepTimeoutMs?: number;
}

/**
 * Sent by each view frame, after its own scripts, once it has marked
 * `rows-painted`: the marks the bench reads, posted to the host page. It
 * watches the timeline rather than polling it, so it adds no work while the
 * view starts.
 */
const markReporter =
  '<script>new PerformanceObserver(function (list, observer) {' +
  'if (list.getEntriesByName("rows-painted").length === 0) return; observer.disconnect();' +
  'var at = function (name) { var mark = performance.getEntriesByName(name, "mark")[0]; return mark && mark.startTime; };' +
  'parent.postMessage({ viewMarks: { origin: performance.timeOrigin, rendered: at("rows-rendered"), painted: at("rows-painted"),' +
  ' received: at("result-received"), initialize: at("mcp-view:initialize"), initialized: at("mcp-view:initialized") } }, "*");' +
  '}).observe({ type: "mark", buffered: true });</script>';

/**
 * Runs the steps in one page of the host: asks the bench for the next step,
 * goes to a new page when the step wants one, keeps only the last view
 * beside the next (Chromium draws no animation frame for a frame out of
 * sight), waits for the page to be idle, mounts, and posts the view's marks.
 */
const stepRunner = `(async () => {
  let mounted = 0;
  for (;;) {
    const next = await (await fetch('/next?mounted=' + mounted)).json();
    if (next.done) return;
    if (next.navigate) { location.replace('/page?' + next.navigate); return; }
    const frames = [...document.querySelectorAll('iframe')];
    for (const frame of frames.slice(0, -1)) frame.remove();
    for (const frame of frames.slice(-1)) frame.style.cssText += ';position:absolute;top:0;left:740px';
    await new Promise((resolve) => setTimeout(resolve, 250));
    const reported = new Promise((resolve) => {
      const onMessage = (event) => {
        if (!event.data || !event.data.viewMarks) return;
        removeEventListener('message', onMessage);
        resolve(event.data.viewMarks);
      };
      addEventListener('message', onMessage);
    });
    await window.mountView({ html: next.html, toolInput: next.toolInput, toolResult: next.toolResult });
    const marks = await reported;
    mounted++;
    const mount = performance.getEntriesByName('view-mount', 'mark').at(-1);
    await fetch('/result', {
      method: 'POST',
      body: JSON.stringify({ step: next.step, marks, hostMount: mount && performance.timeOrigin + mount.startTime }),
    });
  }
})();`;

async function readBody(request: IncomingMessage): Promise<string> {
  let body = '';
  for await (const chunk of request) body += chunk;
  return body;
}

/**
 * Mounts views in Debian's Chromium with no test driver attached: the
 * browser is started on the host page and nothing else talks to it. A
 * driver that attaches to the browser holds each new out-of-process frame
 * (a sandboxed view has one) until it has set the frame up, and runs its
 * own scripts in it, which a user's browser never does; here the host page
 * runs the steps itself and posts each view's marks to a loopback listener.
 * Returns the labelled steps' times, in order.
 *
 * @example
 * const times = await runUnattachedViewRounds({ hostScript, views: { mine: html }, toolInput, toolResult,
 *   steps: [{ view: 'mine', newPage: true }, { view: 'mine', newPage: false, label: 'warm' }] });
 */
export async function runUnattachedViewRounds(
  options: UnattachedViewRoundsOptions,
): Promise<{ label: string; times: ViewRenderTimes }[]> {
  const views = Object.fromEntries(
    Object.entries(options.views).map(([name, html]) => {
      const end = html.lastIndexOf('</body>');
      return [name, end === -1 ? html + markReporter : html.slice(0, end) + markReporter + html.slice(end)];
    }),
  );
  const page = `<!doctype html><html><head><meta charset="utf-8"></head><body><script>${options.hostScript}</script><script>${stepRunner}</script></body></html>`;
  const results: { label: string; times: ViewRenderTimes }[] = [];
  let nextStep = 0;
  let reportedSteps = 0;
  let settle: (error?: Error) => void = () => {};
  const finished = new Promise<void>((resolve, reject) => {
    settle = (error) => (error === undefined ? resolve() : reject(error));
  });
  const stepTimeoutMs = options.stepTimeoutMs ?? 20_000;
  let stepTimer = setTimeout(() => settle(new Error('no view reported within the step time limit')), stepTimeoutMs);
  const site = createServer(async (request, response) => {
    const url = new URL(request.url ?? '/', 'http://127.0.0.1');
    if (url.pathname === '/page') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      response.end(page);
      return;
    }
    if (url.pathname === '/next') {
      const step = options.steps[nextStep];
      response.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      if (step === undefined) {
        response.end('{"done":true}');
        return;
      }
      if (step.newPage && url.searchParams.get('mounted') !== '0') {
        response.end(JSON.stringify({ navigate: String(nextStep) }));
        return;
      }
      const html = views[step.view];
      if (html === undefined) {
        response.end('{"done":true}');
        settle(new Error(`no view named ${step.view}`));
        return;
      }
      response.end(
        JSON.stringify({ step: nextStep, html, toolInput: options.toolInput, toolResult: options.toolResult }),
      );
      nextStep++;
      return;
    }
    if (url.pathname === '/result' && request.method === 'POST') {
      const report = JSON.parse(await readBody(request)) as { step: number; marks: ViewMarks; hostMount?: number };
      response.end();
      const label = options.steps[report.step]?.label;
      if (label !== undefined) results.push({ label, times: viewRenderTimesFromMarks(report.marks, report.hostMount) });
      clearTimeout(stepTimer);
      stepTimer = setTimeout(() => settle(new Error('no view reported within the step time limit')), stepTimeoutMs);
      if (++reportedSteps === options.steps.length) settle();
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const profile = mkdtempSync(join(tmpdir(), 'toolshed-chromium-'));
  const browser = spawn(
    chromiumBinary,
    [
      ...chromiumSwitches,
      `--user-data-dir=${profile}`,
      `http://127.0.0.1:${(site.address() as AddressInfo).port}/page`,
    ],
    { stdio: 'ignore' },
  );
  const exited = new Promise<void>((resolve) => browser.once('exit', () => resolve()));
  browser.once('exit', (code) => settle(new Error(`Chromium exited (${code}) before the last step`)));
  try {
    await finished;
    return results;
  } finally {
    clearTimeout(stepTimer);
    browser.kill();
    await exited;
    site.close();
    rmSync(profile, { recursive: true, force: true });
  }
}
