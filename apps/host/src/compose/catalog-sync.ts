import type { McpServer, PromptDescriptor, ResourceDescriptor, ResourceTemplateDescriptor } from '@toolshed/mcp-core';
import type { Upstream } from '../upstream/upstream.ts';
import { assignToolNames } from './assign-tool-names.ts';
import { createProxyPrompt, createProxyResource, createProxyResourceTemplate } from './proxy-catalog.ts';
import { composedToolName } from './tool-names.ts';

interface CatalogSyncOptions {
  server: McpServer;
  /** The separator now (a reload may change it). */
  separator(): string;
  log(line: string): void;
  /** The host's names of an upstream's tools, by the upstream's own names: what its views are told. */
  toolNamesOf?(upstream: Upstream): Record<string, string>;
}

type Known = {
  prompts: PromptDescriptor[];
  resources: ResourceDescriptor[];
  resourceTemplates: ResourceTemplateDescriptor[];
};

/** What one exposed entry stands for: the upstream and its descriptor, compared by identity to see a change. */
type Exposed = { owner: Upstream; descriptor: object };

/**
 * Brings one catalog of the host (prompts, resources or templates, by key)
 * to `next`: what is gone or now stands for something else is removed, what
 * is new is added. The server tells its clients list_changed for each.
 */
function reconcile<Entry extends Exposed>(
  exposed: Map<string, Exposed>,
  next: Map<string, Entry>,
  remove: (key: string) => void,
  add: (key: string, entry: Entry) => void,
): void {
  for (const [key, entry] of exposed) {
    const kept = next.get(key);
    if (kept?.owner === entry.owner && kept.descriptor === entry.descriptor) continue;
    remove(key);
    exposed.delete(key);
  }
  for (const [key, entry] of next) {
    if (exposed.has(key)) continue;
    try {
      add(key, entry);
      exposed.set(key, entry);
    } catch {
      // A descriptor the host cannot serve (a URI without a scheme, a template it cannot parse) is left out; `add` said why.
    }
  }
}

/**
 * The prompts, resources and resource templates of every upstream on the
 * host, named as tools are: prompts `<prefix><separator><name>` with the
 * same rules and the same names for collisions; templates and resources keep their
 * URIs (links in results point at them) with prefixed names. Two servers
 * with the same resource URI: the first in config order serves it. While a
 * server is down its entries are withdrawn, and its names stay reserved.
 */
export function createCatalogSync(options: CatalogSyncOptions): { sync(upstreams: readonly Upstream[]): void } {
  const { server, log } = options;
  const known = new Map<Upstream, Known>();
  const prompts = new Map<string, Exposed>();
  const resources = new Map<string, Exposed>();
  const templates = new Map<string, Exposed>();
  const reported = new Set<string>();
  const once = (key: string, line: string) => {
    if (reported.has(key)) return;
    reported.add(key);
    log(line);
  };
  const prefixOf = (upstream: Upstream) => upstream.entry.prefix ?? upstream.entry.name;

  return {
    sync(upstreams) {
      const separator = options.separator();
      const join = (prefix: string, name: string) => (prefix === '' ? name : `${prefix}${separator}${name}`);
      for (const upstream of known.keys()) if (!upstreams.includes(upstream)) known.delete(upstream);
      for (const upstream of upstreams) {
        if (upstream.state !== 'up') continue;
        const { prompts: promptList, resources: resourceList, resourceTemplates } = upstream;
        known.set(upstream, { prompts: promptList, resources: resourceList, resourceTemplates });
      }
      const up = (owner: Upstream) => owner.state === 'up';

      const promptNames = assignToolNames(
        upstreams.flatMap((owner) =>
          (known.get(owner)?.prompts ?? []).map((descriptor) => ({
            owner,
            descriptor,
            name: composedToolName(prefixOf(owner), separator, descriptor.name),
            identity: `${owner.entry.name}/${descriptor.name}`,
          })),
        ),
      );
      reconcile(
        prompts,
        new Map(promptNames.filter((entry) => up(entry.owner)).map((entry) => [entry.exposedName, entry])),
        (name) => server.removePrompt(name),
        (name, entry) => {
          server.addPrompt(createProxyPrompt(entry.owner, entry.descriptor, name));
          if (entry.sharedWith.length > 0) {
            const others = entry.sharedWith.map((other) => `${other.owner.entry.name}'s ${other.descriptor.name}`);
            once(
              `prompt ${entry.identity}`,
              `[${entry.owner.entry.name}] prompt ${entry.descriptor.name} is named ${name}: ${entry.name} is also wanted by ${others.join(', ')}`,
            );
          }
        },
      );

      const templateNames = assignToolNames(
        upstreams.flatMap((owner) =>
          (known.get(owner)?.resourceTemplates ?? []).map((descriptor) => ({
            owner,
            descriptor,
            name: join(prefixOf(owner), descriptor.name),
            identity: `${owner.entry.name}/${descriptor.name}`,
          })),
        ),
      );
      reconcile(
        templates,
        new Map(templateNames.filter((entry) => up(entry.owner)).map((entry) => [entry.exposedName, entry])),
        (name) => server.removeResourceTemplate(name),
        (name, entry) => {
          try {
            server.addResourceTemplate(createProxyResourceTemplate(entry.owner, entry.descriptor, name));
          } catch (error) {
            once(
              `template ${entry.owner.entry.name}/${entry.descriptor.uriTemplate}`,
              `[${entry.owner.entry.name}] resource template ${entry.descriptor.uriTemplate} is left out: ${error instanceof Error ? error.message : String(error)}`,
            );
            throw error;
          }
        },
      );

      const byUri = new Map<string, Exposed & { descriptor: ResourceDescriptor }>();
      for (const owner of upstreams) {
        for (const descriptor of known.get(owner)?.resources ?? []) {
          const holder = byUri.get(descriptor.uri);
          if (holder === undefined) {
            byUri.set(descriptor.uri, { owner, descriptor });
          } else if (holder.owner !== owner) {
            once(
              `resource ${owner.entry.name}/${descriptor.uri}`,
              `[${owner.entry.name}] resource ${descriptor.uri} is also ${holder.owner.entry.name}'s, earlier in the config; reads of it go there`,
            );
          }
        }
      }
      reconcile(
        resources,
        new Map([...byUri].filter(([, entry]) => up(entry.owner))),
        (uri) => server.removeResource(uri),
        (uri, entry) => {
          try {
            server.addResource(
              createProxyResource(
                entry.owner,
                entry.descriptor,
                join(prefixOf(entry.owner), entry.descriptor.name),
                () => options.toolNamesOf?.(entry.owner) ?? {},
              ),
            );
          } catch (error) {
            once(
              `resource ${entry.owner.entry.name}/${uri}`,
              `[${entry.owner.entry.name}] resource ${uri} is left out: ${error instanceof Error ? error.message : String(error)}`,
            );
            throw error;
          }
        },
      );
    },
  };
}
