import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectTestClient, serviceGate, type TestClient } from '@toolshed/mcp-core/testing';
import {
  chromiumService,
  readViewResource,
  startViewHost,
  type ViewHost,
  viewScreenshotPath,
} from '@toolshed/view-testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFilesystemServer } from './create-filesystem-server.ts';
import { editReviewViewUri } from './edit-review-view.ts';

const chromiumInstalled = serviceGate(chromiumService, it);

let directory: string;
let server: ReturnType<typeof createFilesystemServer>;
let client: TestClient;
let host: ViewHost;

describe.runIf(chromiumInstalled)('the edit review in Chromium, with the official AppBridge as host', () => {
  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-edit-review-browser-'));
    server = createFilesystemServer({ directories: [directory] });
    client = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory', ui: true });
    host = await startViewHost();
  }, 60_000);

  afterAll(async () => {
    await host?.close();
    await client?.close();
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  async function mount(toolInput: Record<string, unknown>) {
    const html = (await readViewResource(client, editReviewViewUri))?.text;
    const toolResult = await client.callTool('edit_file', toolInput);
    return host.open({ html, toolInput, toolResult, callTool: (name, args) => client.callTool(name, args) });
  }

  it('shows the dry run side by side and applies it with the reviewed digest', async () => {
    const path = join(directory, 'notes.txt');
    writeFileSync(path, 'alpha\nbeta\ngamma\n');
    const edits = [{ oldText: 'beta', newText: 'BETA <img src=x onerror=alert(1)>' }];
    const { page, frame, problems, events } = await mount({ path, edits, dryRun: true });
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Not written yet: a dry run');
    expect(await frame.locator('td.del').allTextContents()).toEqual(['beta']);
    // The new text is shown as text: the file's words never become markup.
    expect(await frame.locator('td.add').allTextContents()).toEqual(['BETA <img src=x onerror=alert(1)>']);
    expect(await frame.locator('img').count()).toBe(0);
    await page.screenshot({ path: viewScreenshotPath(import.meta.url, 'edit-review-view.png'), fullPage: true });
    await frame.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Written');
    expect(readFileSync(path, 'utf8')).toBe('alpha\nBETA <img src=x onerror=alert(1)>\ngamma\n');
    const seen = await events();
    const call = seen.find((event) => event.type === 'tools/call');
    expect(call?.params).toMatchObject({ name: 'apply_reviewed_edit', arguments: { path, edits } });
    expect((call?.params.arguments as { digest?: string } | undefined)?.digest).toMatch(/^[0-9a-f]{64}$/);
    await expect.poll(async () => (await events()).some((event) => event.type === 'update-model-context')).toBe(true);
    expect(seen.some((event) => event.type === 'size-changed')).toBe(true);
    expect(problems).toEqual([]);
    await page.close();
  });

  it('refuses to apply when the file changed after the dry run', async () => {
    const path = join(directory, 'moving.txt');
    writeFileSync(path, 'one\ntwo\n');
    const { page, frame, problems } = await mount({
      path,
      edits: [{ oldText: 'two', newText: '2' }],
      dryRun: true,
    });
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Not written yet: a dry run');
    writeFileSync(path, 'one\ntwo\nthree\n');
    await frame.getByRole('button', { name: 'Apply' }).click();
    await expect.poll(() => frame.locator('#error').textContent()).toMatch(/changed since the dry run/);
    expect(await frame.locator('#status').textContent()).toBe('Not written');
    expect(readFileSync(path, 'utf8')).toBe('one\ntwo\nthree\n');
    expect(problems).toEqual([]);
    await page.close();
  });

  it('offers no Apply for an edit already written', async () => {
    const path = join(directory, 'done.txt');
    writeFileSync(path, 'x\n');
    const { page, frame } = await mount({ path, edits: [{ oldText: 'x', newText: 'y' }] });
    await expect.poll(() => frame.locator('#status').textContent()).toBe('Written');
    expect(await frame.getByRole('button', { name: 'Apply' }).isHidden()).toBe(true);
    await page.close();
  });
});
