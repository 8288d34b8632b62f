import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitTask, connectTestClient, type TestClient } from '@toolshed/mcp-core/testing';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { photo } from './__fixtures__/sample-images.ts';
import { createImageServer } from './create-image-server.ts';

// Twenty wide blurs of a 49-megapixel image: minutes of work on any machine, but seconds a step, and the
// pipeline looks at its signal between steps.
const endlessPipeline = {
  path: 'huge.png',
  format: 'png',
  operations: Array.from({ length: 20 }, () => ({ op: 'adjust', blur: 50 })),
};

describe('process_image as a task', () => {
  let directory: string;
  let out: string;
  let server: ReturnType<typeof createImageServer>;
  let tasksClient: TestClient;
  let plainClient: TestClient;

  beforeAll(async () => {
    directory = mkdtempSync(join(tmpdir(), 'toolshed-image-task-'));
    const images = join(directory, 'images');
    out = join(directory, 'out');
    mkdirSync(images);
    mkdirSync(out);
    await sharp({ create: { width: 7000, height: 7000, channels: 3, background: '#808080' } })
      .png()
      .toFile(join(images, 'huge.png'));
    await (await photo(64, 64)).png().toFile(join(images, 'small.png'));
    server = createImageServer({
      directories: [images],
      outputDirectory: out,
      // One slot, and a call time limit no machine reaches here: only the cancel can end the pipeline early.
      limits: { maxConcurrent: 1, maxQueued: 1, timeoutMs: 3_600_000 },
    });
    tasksClient = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory', tasks: true });
    plainClient = await connectTestClient({ server }, { client: 'v2-modern', transport: 'memory' });
  });

  afterAll(async () => {
    await tasksClient?.close();
    await plainClient?.close();
    await server?.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('a pipeline that became a task and is cancelled frees its slot for the next call', async () => {
    const created = await tasksClient.request('tools/call', { name: 'process_image', arguments: endlessPipeline });
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const taskId = created.taskId as string;
    // Its progress is the task's status message: a step done means it holds the one slot.
    await expect
      .poll(async () => (await tasksClient.request('tasks/get', { taskId })).statusMessage, { timeout: 120_000 })
      .toMatch(/^adjust \(\d+\/21\)$/);

    let waitingSettled = false;
    const waiting = plainClient
      .callTool('process_image', { path: 'small.png', operations: [{ op: 'resize', width: 32 }] })
      .finally(() => {
        waitingSettled = true;
      });
    // The pipeline cannot end for minutes, so the call behind it is still waiting for the slot.
    expect((await tasksClient.request('tasks/get', { taskId })).status).toBe('working');
    expect(waitingSettled).toBe(false);

    await tasksClient.request('tasks/cancel', { taskId });
    expect(await awaitTask(tasksClient, taskId)).toMatchObject({ status: 'cancelled' });
    const next = await waiting;
    expect(next.isError, next.content[0]?.text).toBeFalsy();
    expect(next.structuredContent).toMatchObject({ result: { width: 32, height: 32 } });
    // The slot came free because the pipeline stopped, not because it finished: it wrote nothing.
    expect(readdirSync(out).filter((name) => name.startsWith('huge'))).toEqual([]);
    expect(tasksClient.protocolProblems()).toEqual([]);
  }, 240_000);

  it('a quick call from a client that takes tasks is answered at once, as before', async () => {
    const quick = await tasksClient.request('tools/call', {
      name: 'process_image',
      arguments: { path: 'small.png', operations: [{ op: 'rotate', angle: 90 }] },
    });
    expect(quick).toMatchObject({ resultType: 'complete', structuredContent: { result: { width: 64, height: 64 } } });
    expect(quick).not.toHaveProperty('taskId');
  });
});
