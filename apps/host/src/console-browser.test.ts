import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import { chromiumService, launchChromium } from '@toolshed/view-testing';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLines } from './__fixtures__/audit-lines.ts';
import { postFromPage } from './__fixtures__/post-from-page.ts';
import { parseHostConfig } from './config/load-config.ts';
import type { PendingApproval } from './console/approval-broker.ts';
import { type ConsoleServerHandle, serveConsole } from './console/console-server.ts';
import { createTokenStore, type TokenStore } from './console/console-token-store.ts';
import { fieldId } from './console/schema-form.ts';
import { createHost, type Host } from './create-host.ts';

const chromiumInstalled = serviceGate(chromiumService, it);

/** A name only the browser resolves (to 127.0.0.1): what a DNS-rebinding page would be served from. */
const rebindingName = 'rebinding.example';

let directory: string;
let workspace: string;
let screenshots: string;

interface ConsoleUnderTest {
  host: Host;
  tokens: TokenStore;
  console: ConsoleServerHandle;
  close(): Promise<void>;
}

async function startConsole(approval: Record<string, unknown> = {}): Promise<ConsoleUnderTest> {
  const host = createHost(
    parseHostConfig(
      JSON.stringify({
        toolshed: { audit: { path: join(directory, 'audit.jsonl') }, approval },
        mcpServers: {
          '@toolshed/server-filesystem': { directories: [workspace], approval: { skip: ['edit_file'] } },
        },
      }),
      join(directory, 'toolshed.json'),
    ),
    { log: () => {} },
  );
  await host.start();
  const tokens = createTokenStore(host.store);
  const handle = await serveConsole({ host, tokens });
  return {
    host,
    tokens,
    console: handle,
    async close() {
      await handle.close();
      await host.close();
    },
  };
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshots, `${name}.png`), fullPage: true });
}

async function logIn(page: Page, base: string, token: string): Promise<void> {
  await page.goto(`${base}login`);
  await page.getByLabel('Token').fill(token);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${base}servers`);
}

/** The waiting call whose arguments write to `target`. */
async function waitForPending(host: Host, target: string): Promise<PendingApproval> {
  const find = async () => (await host.approvals.pending()).find((pending) => pending.arguments.path === target);
  await expect.poll(find, { timeout: 10_000 }).toBeDefined();
  return (await find()) as PendingApproval;
}

async function csrfOf(page: Page): Promise<string> {
  return (await page.locator('header form input[name="csrf"]').getAttribute('value')) ?? '';
}

describe.runIf(chromiumInstalled)('the web console in Chromium', () => {
  let app: ConsoleUnderTest;
  let base: string;
  let browser: Awaited<ReturnType<typeof launchChromium>>;
  let context: BrowserContext;
  let page: Page;
  let aliceToken: string;
  let client: TestClient;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-console-browser-'));
    workspace = join(directory, 'workspace');
    mkdirSync(workspace);
    screenshots = mkdtempSync(join(tmpdir(), 'toolshed-console-screenshots-'));
    app = await startConsole();
    base = app.console.url;
    // An older record, so that the audit page has pages to turn and rows to filter out.
    const audit = app.host.store().audit;
    for (let index = 0; index < 120; index++) {
      const id = `archived-${index}`;
      await audit.begin({
        id,
        time: new Date(Date.UTC(2026, 0, 1, 0, index)).toISOString(),
        caller: 'archive/1',
        server: 'archive',
        tool: index % 2 === 0 ? 'archive_read' : 'archive_write',
        upstream_tool: index % 2 === 0 ? 'read' : 'write',
        arguments_sha256: '0'.repeat(64),
        approval: 'not_required',
      });
      await audit.complete(id, {
        approval: 'not_required',
        duration_ms: index,
        outcome: index % 3 === 0 ? 'error' : 'ok',
      });
    }
    aliceToken = (await app.tokens.create('alice', 'browser test')).secret;
    browser = await launchChromium([`--host-resolver-rules=MAP ${rebindingName} 127.0.0.1`]);
    context = browser.context;
    page = context.pages()[0] ?? (await context.newPage());
    // The client that cannot ask its user: SDK v2 in the 2026 era, declaring no elicitation.
    client = await connectTestClient({ server: app.host.server }, { client: 'v2-modern', transport: 'memory' });
  }, 60_000);

  afterAll(async () => {
    await client?.close();
    await browser?.close();
    await app?.close();
    rmSync(directory, { recursive: true, force: true });
    console.info(`console screenshots: ${screenshots}`);
  });

  it('logs in with a token, refuses a wrong one, and logs out', async () => {
    await page.goto(`${base}servers`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await shot(page, 'login');
    await page.getByLabel('Token').fill('tsc_not-a-token');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not valid/);
    await logIn(page, base, aliceToken);
    await expect.poll(() => page.locator('h2#server-filesystem').textContent()).toBe('filesystem');
    expect(await page.locator('main').textContent()).toMatch(/filesystem_write_file/);
    expect(await page.locator('main').textContent()).toMatch(/modern \(2026-07-28\)/);
    await shot(page, 'servers');
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.waitForURL(`${base}login`);
    await page.goto(`${base}approvals`);
    expect(new URL(page.url()).pathname).toBe('/login');
    await logIn(page, base, aliceToken);
  });

  it('a client that cannot ask calls a destructive tool; approved in the console, it runs and the file is written', async () => {
    await page.goto(`${base}approvals`);
    expect(await page.locator('[data-live-approvals]').textContent()).toMatch(/No call is waiting/);
    const target = join(workspace, 'approved.txt');
    const call = client.callTool('filesystem_write_file', { path: target, content: 'written after approval' });
    // The list updates itself (server-sent events): no reload.
    const article = page.locator('article.approval', { hasText: 'approved.txt' });
    await article.waitFor({ timeout: 10_000 });
    expect(await article.locator('pre.arguments').textContent()).toContain('written after approval');
    expect(await article.textContent()).toMatch(/Asked by .*v2|Asked by \S+/);
    await shot(page, 'approvals');
    expect(existsSync(target)).toBe(false);
    await page.getByRole('button', { name: 'Approve filesystem_write_file' }).click();
    await page.waitForURL(/done=approve/);
    const result = await call;
    expect(result.isError, result.content[0]?.text).toBeFalsy();
    expect(readFileSync(target, 'utf8')).toBe('written after approval');
    expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
      tool: 'filesystem_write_file',
      approval: 'approved',
      outcome: 'ok',
    });
  });

  it('a denial returns a clear error to the client and writes nothing', async () => {
    await page.goto(`${base}approvals`);
    const target = join(workspace, 'denied.txt');
    const call = client.callTool('filesystem_write_file', { path: target, content: 'never' });
    await page.locator('article.approval', { hasText: 'denied.txt' }).waitFor({ timeout: 10_000 });
    await page.getByRole('button', { name: 'Deny filesystem_write_file' }).click();
    await page.waitForURL(/done=deny/);
    const result = await call;
    expect(result.isError).toBe(true);
    expect(result.content[0]?.text).toMatch(/A human denied filesystem_write_file in the Toolshed console/);
    expect(existsSync(target)).toBe(false);
  });

  it('an approval is used once: sending the same decision again is refused and runs nothing', async () => {
    await page.goto(`${base}approvals`);
    const target = join(workspace, 'once.txt');
    const call = client.callTool('filesystem_write_file', { path: target, content: 'once' });
    const pending = await waitForPending(app.host, target);
    const fields = {
      csrf: await csrfOf(page),
      tool: pending.tool,
      digest: pending.argumentsDigest,
      decision: 'approve',
    };
    await postFromPage(page, `/approvals/${pending.id}`, fields);
    await page.waitForURL(/done=approve/);
    expect((await call).isError).toBeFalsy();
    const approvedBefore = (await auditLines(join(directory, 'audit.jsonl'))).filter(
      (line) => line.approval === 'approved',
    ).length;
    await postFromPage(page, `/approvals/${pending.id}`, fields);
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/already decided: an approval is used once/);
    expect(
      (await auditLines(join(directory, 'audit.jsonl'))).filter((line) => line.approval === 'approved').length,
    ).toBe(approvedBefore);
  });

  it('a decision that names other arguments than the call’s decides nothing', async () => {
    await page.goto(`${base}approvals`);
    const target = join(workspace, 'mismatch.txt');
    const call = client.callTool('filesystem_write_file', { path: target, content: 'mismatch' });
    const pending = await waitForPending(app.host, target);
    await postFromPage(page, `/approvals/${pending.id}`, {
      csrf: await csrfOf(page),
      tool: pending.tool,
      digest: 'f'.repeat(64),
      decision: 'approve',
    });
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not what this request is for/);
    expect(app.host.approvals.get(pending.id)).toBeDefined();
    await page
      .locator('article.approval', { hasText: 'mismatch.txt' })
      .getByRole('button', { name: 'Deny filesystem_write_file' })
      .click();
    expect((await call).isError).toBe(true);
    expect(existsSync(target)).toBe(false);
  });

  it('fills a try-it form for a nested schema (an array of objects), runs it, and shows the result', async () => {
    writeFileSync(join(workspace, 'notes.md'), 'alpha\nbeta\ngamma\n');
    await page.goto(`${base}try/filesystem_edit_file`);
    await page.locator(`#${fieldId('/path')}`).fill(join(workspace, 'notes.md'));
    await page.getByRole('button', { name: 'Add an item to edits' }).click();
    await page.getByRole('button', { name: 'Add an item to edits' }).click();
    await page.getByRole('button', { name: 'Add an item to edits' }).click();
    await page.locator(`#${fieldId('/edits/0/oldText')}`).fill('alpha');
    await page.locator(`#${fieldId('/edits/0/newText')}`).fill('ALPHA');
    await page.locator(`#${fieldId('/edits/1/oldText')}`).fill('no such line');
    await page.locator(`#${fieldId('/edits/2/oldText')}`).fill('gamma');
    await page.locator(`#${fieldId('/edits/2/newText')}`).fill('GAMMA');
    await page.getByRole('button', { name: 'Remove edits 2' }).click();
    // What was typed survives the round trip of adding and removing items.
    expect(await page.locator(`#${fieldId('/edits/0/oldText')}`).inputValue()).toBe('alpha');
    expect(await page.locator(`#${fieldId('/edits/1/oldText')}`).inputValue()).toBe('gamma');
    await page.getByLabel('dryRun').check();
    await shot(page, 'try-it');
    await page.getByRole('button', { name: 'Call filesystem_edit_file' }).click();
    await page.waitForURL(/\/calls\//);
    await expect.poll(() => page.locator('section.result').count(), { timeout: 10_000 }).toBe(1);
    const shown = (await page.locator('section.result').textContent()) ?? '';
    expect(shown).toMatch(/-alpha/);
    expect(shown).toMatch(/\+GAMMA/);
    expect(await page.locator('pre.structured').textContent()).toMatch(/"written": false/);
    await shot(page, 'try-it-result');
    expect(readFileSync(join(workspace, 'notes.md'), 'utf8')).toBe('alpha\nbeta\ngamma\n');
    expect((await auditLines(join(directory, 'audit.jsonl'))).at(-1)).toMatchObject({
      caller: expect.stringMatching(/^toolshed-console:alice\//),
      tool: 'filesystem_edit_file',
    });
  });

  it('shows a tool’s error result as an error', async () => {
    await page.goto(`${base}try/filesystem_read_text_file`);
    await page.locator(`#${fieldId('/path')}`).fill('/etc/passwd');
    await page.getByRole('button', { name: 'Call filesystem_read_text_file' }).click();
    await page.waitForURL(/\/calls\//);
    await expect.poll(() => page.locator('section.result.is-error').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByRole('alert').textContent()).toMatch(/answered with an error/);
  });

  it('filters the audit log by server, tool, outcome and time, a page at a time', async () => {
    await page.goto(`${base}audit`);
    expect(await page.locator('.audit-count').textContent()).toMatch(/Calls 1–50 of \d+ matching/);
    await page.getByRole('link', { name: 'Older' }).click();
    expect(await page.locator('.audit-count').textContent()).toMatch(/Calls 51–100 of/);
    await page.goto(`${base}audit`);
    await page.getByLabel('Server').selectOption('archive');
    await page.getByLabel('Outcome').selectOption('error');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.locator('.audit-count').textContent()).toMatch(/of 40 matching \(\d+ in the record\)/);
    const outcomes = await page.locator('table.audit tbody td.outcome-error').count();
    expect(outcomes).toBe(await page.locator('table.audit tbody tr').count());
    await page.getByLabel('Tool contains').fill('write');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.locator('.audit-count').textContent()).toMatch(/of 20 matching/);
    await page.goto(`${base}audit`);
    await page.getByLabel('Server').selectOption('filesystem');
    await page.getByLabel('Outcome').selectOption('refused');
    await page.getByRole('button', { name: 'Filter' }).click();
    const refused = await page.locator('table.audit tbody tr').allTextContents();
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((row) => /filesystem_write_file/.test(row) && /declined/.test(row))).toBe(true);
    await page.goto(`${base}audit`);
    await page.getByLabel('From (UTC)').fill('2026-01-01T00:10');
    await page.getByLabel('To (UTC)').fill('2026-01-01T00:19');
    await page.getByRole('button', { name: 'Filter' }).click();
    expect(await page.locator('.audit-count').textContent()).toMatch(/of 10 matching/);
    await shot(page, 'audit');
  });

  it('refuses a form posted from another origin, even another port of the same host', async () => {
    const attacker: Server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end(`<!doctype html><form method="post" action="${base}tokens">
<input type="hidden" name="user" value="mallory"><button type="submit">win a prize</button></form>`);
    });
    await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
    try {
      const before = (await app.tokens.list()).length;
      await page.goto(`http://127.0.0.1:${(attacker.address() as AddressInfo).port}/`);
      await page.getByRole('button', { name: 'win a prize' }).click();
      await page.waitForURL(`${base}tokens`);
      expect(await page.getByRole('alert').textContent()).toMatch(/Forbidden: .*forms are accepted from this console/);
      expect(await app.tokens.list()).toHaveLength(before);
    } finally {
      // The browser keeps its connection open; closing waits for none.
      attacker.closeAllConnections();
      await new Promise((resolve) => attacker.close(resolve));
    }
  });

  it('refuses a same-origin form without the session’s form token (CSRF)', async () => {
    await page.goto(`${base}tokens`);
    const before = (await app.tokens.list()).length;
    await postFromPage(page, '/tokens', { user: 'mallory', csrf: 'guessed' });
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/form token is missing or wrong/);
    expect(await app.tokens.list()).toHaveLength(before);
  });

  it('refuses a page reached under another host name (DNS rebinding)', async () => {
    const response = await page.goto(`http://${rebindingName}:${new URL(base).port}/login`);
    expect(response?.status()).toBe(403);
    expect(await page.locator('main').textContent()).toMatch(/Host header .* is not allowed/);
  });

  it('makes a token that is shown once and logs in; revoking it ends its session', async () => {
    await page.goto(`${base}tokens`);
    await page.getByLabel('User', { exact: true }).fill('bob');
    await page.getByLabel('Label').fill('laptop');
    await page.getByRole('button', { name: 'Create token' }).click();
    const secret = (await page.locator('#new-token').textContent()) ?? '';
    expect(secret).toMatch(/^tsc_[A-Za-z0-9_-]{43}$/);
    await shot(page, 'tokens');
    // The state store keeps the token's digest, never the token.
    const stateDirectory = join(process.env.XDG_STATE_HOME ?? '', 'toolshed');
    for (const name of ['state.db', 'state.db-wal'].filter((file) => readdirSync(stateDirectory).includes(file))) {
      expect(readFileSync(join(stateDirectory, name)).includes(secret)).toBe(false);
    }
    await page.goto(`${base}tokens`);
    expect(await page.locator('main').textContent()).not.toContain(secret);
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn(page, base, secret);
    expect(await page.locator('header span').textContent()).toBe('bob');
    await page.goto(`${base}tokens`);
    await page.getByRole('button', { name: 'Revoke bob’s token laptop' }).click();
    await page.waitForURL(`${base}login`);
    await page.getByLabel('Token').fill(secret);
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/not valid/);
    await logIn(page, base, aliceToken);
  });

  it('expires a call nobody decides, and refuses a decision that comes after', async () => {
    const short = await startConsole({ consoleTimeLimitMs: 200 });
    const caller = await connectTestClient({ server: short.host.server }, { client: 'v1', transport: 'memory' });
    try {
      const token = (await short.tokens.create('alice', 'expiry')).secret;
      // Both consoles share one state store, so the browser's session is good on this one too: log in afresh.
      await context.clearCookies();
      await logIn(page, short.console.url, token);
      const target = join(workspace, 'late.txt');
      const call = caller.callTool('filesystem_write_file', { path: target, content: 'late' });
      const pending = await waitForPending(short.host, target).catch(() => undefined);
      const result = await call;
      expect(result.content[0]?.text).toMatch(/Nobody approved filesystem_write_file in the Toolshed console within/);
      expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
      if (pending !== undefined) {
        await page.goto(`${short.console.url}approvals`);
        await postFromPage(page, `/approvals/${pending.id}`, {
          csrf: await csrfOf(page),
          tool: pending.tool,
          digest: pending.argumentsDigest,
          decision: 'approve',
        });
        await expect.poll(() => page.getByRole('alert').textContent()).toMatch(/expired before the decision/);
        expect(existsSync(join(workspace, 'late.txt'))).toBe(false);
      }
    } finally {
      await caller.close();
      await short.close();
    }
  });
});
