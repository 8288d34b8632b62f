import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext, Frame, Page } from 'playwright-core';
import { bundleAppBridgeHost } from './bundle-app-bridge-host.ts';
import { launchChromium } from './chromium-browser.ts';

/** What the view sent its host, in order, as the reference host records it. */
export interface HostEvent {
  type: string;
  params: Record<string, unknown>;
}

/** The view to mount: its HTML, the tool's input and result, and how the host answers the view's `tools/call`. */
export interface ViewMount {
  html: string | undefined;
  toolInput: Record<string, unknown>;
  toolResult: unknown;
  callTool(name: string, args: Record<string, unknown>): Promise<unknown>;
}

export interface OpenedView {
  page: Page;
  /** The sandboxed frame the view runs in. */
  frame: Frame;
  /** Page errors, console errors and Content Security Policy reports. */
  problems: string[];
  /** Every URL the page and the view requested. */
  requests: string[];
  events(): Promise<HostEvent[]>;
}

export interface ViewHost {
  context: BrowserContext;
  /** The host page's address; `${base}probe` answers any origin and counts the hits. */
  base: string;
  /** Requests that reached `${base}probe`: another origin, which a view must not reach. */
  probeHits(): number;
  open(view: ViewMount): Promise<OpenedView>;
  close(): Promise<void>;
}

/**
 * Serves the reference host page on 127.0.0.1 and launches Chromium; `open`
 * mounts a view in a new page and collects what it sends and what goes wrong.
 */
export async function startViewHost(): Promise<ViewHost> {
  const hostScript = await bundleAppBridgeHost();
  let probeHits = 0;
  const site = createServer((request, response) => {
    if (request.url === '/probe') {
      probeHits += 1;
      response.writeHead(200, { 'access-control-allow-origin': '*' }).end('reached');
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(`<!doctype html><html><body><script>${hostScript}</script></body></html>`);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
  const browser = await launchChromium().catch(async (error: unknown) => {
    await new Promise((resolve) => site.close(resolve));
    throw error;
  });
  return {
    context: browser.context,
    base,
    probeHits: () => probeHits,
    async open({ html, toolInput, toolResult, callTool }) {
      const page = await browser.context.newPage();
      const problems: string[] = [];
      const requests: string[] = [];
      page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) {
          problems.push(`console: ${message.text()}`);
        }
      });
      page.on('request', (request) => requests.push(request.url()));
      await page.exposeFunction('hostCallTool', (params: { name: string; arguments?: Record<string, unknown> }) =>
        callTool(params.name, params.arguments ?? {}),
      );
      await page.goto(base);
      await page.evaluate(
        (input) => (globalThis as never as { mountView(input: unknown): Promise<void> }).mountView(input),
        { html, toolInput, toolResult },
      );
      const frame = page.frames().find((candidate) => candidate !== page.mainFrame());
      if (frame === undefined) throw new Error('the view frame is missing');
      const events = () =>
        page.evaluate(() => (globalThis as never as { hostEvents: HostEvent[] }).hostEvents) as Promise<HostEvent[]>;
      return { page, frame, problems, requests, events };
    },
    async close() {
      await browser.close();
      await new Promise((resolve) => site.close(resolve));
    },
  };
}
