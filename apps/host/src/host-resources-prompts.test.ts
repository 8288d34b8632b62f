import {
  PromptListChangedNotificationSchema,
  ResourceListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { everythingServer, type HostHarness, startHostHarness } from './__fixtures__/host-harness.ts';

describe('prompts, resources and resource templates of the upstreams', () => {
  let h: HostHarness;

  beforeAll(async () => {
    h = await startHostHarness(() => ({
      mcpServers: { everything: everythingServer(), again: { ...everythingServer(), prefix: 'ev2' } },
    }));
  });

  afterAll(async () => {
    expect(h.specViolations()).toEqual([]);
    await h.close();
  });

  it('lists every server’s prompts under its prefix, and gets them from it', async () => {
    const names = (await h.client.listPrompts()).prompts.map((prompt) => prompt.name);
    expect(names).toEqual(
      expect.arrayContaining(['everything_simple-prompt', 'everything_args-prompt', 'ev2_args-prompt']),
    );
    const prompt = await h.client.getPrompt({ name: 'everything_args-prompt', arguments: { city: 'Lisbon' } });
    expect(JSON.stringify(prompt.messages)).toContain('Lisbon');
  });

  it('completes a prompt’s arguments through the server that has it', async () => {
    const result = await h.client.complete({
      ref: { type: 'ref/prompt', name: 'everything_completable-prompt' },
      argument: { name: 'department', value: 'Eng' },
    });
    expect(result.completion.values).toContain('Engineering');
  });

  it('lists resources with prefixed names and their own URIs, and reads them and template expansions', async () => {
    const { resources } = await h.client.listResources();
    const architecture = resources.find(
      (resource) => resource.uri === 'demo://resource/static/document/architecture.md',
    );
    // Both servers list it; the first in config order serves it.
    expect(architecture?.name).toBe('everything_architecture.md');
    expect(h.log.join('\n')).toMatch(
      /\[again\] resource demo:\/\/resource\/static\/document\/architecture\.md is also everything's, earlier in the config/,
    );
    const read = await h.client.readResource({ uri: 'demo://resource/static/document/architecture.md' });
    expect(JSON.stringify(read.contents)).toMatch(/text/);
    const { resourceTemplates } = await h.client.listResourceTemplates();
    expect(resourceTemplates.map((template) => template.name)).toEqual(
      expect.arrayContaining(['everything_Dynamic Text Resource', 'ev2_Dynamic Text Resource']),
    );
    const expanded = await h.client.readResource({ uri: 'demo://resource/dynamic/text/7' });
    expect(expanded.contents[0]?.uri).toBe('demo://resource/dynamic/text/7');
    await expect(h.client.readResource({ uri: 'nothing://here' })).rejects.toThrow(/Resource not found/);
  });

  it('tells clients when an upstream’s prompts or resources change', async () => {
    let prompts = 0;
    let resources = 0;
    h.client.setNotificationHandler(PromptListChangedNotificationSchema, () => {
      prompts += 1;
    });
    h.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
      resources += 1;
    });
    const upstream = h.host.upstreams[0];
    // As if the server said its lists changed: re-read, the entries stand for new descriptors, so clients hear of it.
    upstream?.session?.onListChanged?.('prompts');
    upstream?.session?.onListChanged?.('resources');
    await expect.poll(() => [prompts > 0, resources > 0], { timeout: 5000 }).toEqual([true, true]);
  });
});
