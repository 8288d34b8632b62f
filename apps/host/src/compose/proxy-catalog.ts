import {
  type CallContext,
  type Completer,
  type CompletionContext,
  defineResource,
  defineResourceTemplate,
  type Prompt,
  type PromptDescriptor,
  ProtocolError,
  type Resource,
  type ResourceContents,
  type ResourceDefinitionInput,
  type ResourceDescriptor,
  type ResourceTemplate,
  type ResourceTemplateDefinitionInput,
  type ResourceTemplateDescriptor,
} from '@toolshed/mcp-core';
import * as z from 'zod';
import type { Upstream } from '../upstream/upstream.ts';
import { UpstreamRpcError } from '../upstream/upstream-errors.ts';
import { withViewToolNames } from './view-tool-names.ts';

const internalError = -32603;

/** An upstream's JSON-RPC error reaches the caller as it came; any other failure as an internal error saying whose. */
function forwardedError(upstream: Upstream, what: string, error: unknown): ProtocolError {
  if (error instanceof UpstreamRpcError) return new ProtocolError(error.code, error.message, error.data);
  const reason = error instanceof Error ? error.message : String(error);
  return new ProtocolError(internalError, `${upstream.entry.name} could not ${what}: ${reason}`);
}

async function forward<Result>(
  upstream: Upstream,
  what: string,
  method: string,
  params: Record<string, unknown>,
  signal: AbortSignal | undefined,
): Promise<Result> {
  try {
    return (await upstream.request(method, params, { signal })) as Result;
  } catch (error) {
    if (signal?.aborted === true) throw error;
    throw forwardedError(upstream, what, error);
  }
}

/** Suggestions for one argument, asked of the upstream under its own names; none when it offers no completions. */
function upstreamCompleter(upstream: Upstream, ref: Record<string, string>, argument: string): Completer | undefined {
  if (upstream.identity?.capabilities.completions === undefined) return undefined;
  return async (value: string, context: CompletionContext) => {
    const result = await forward<{ completion?: { values?: string[] } }>(
      upstream,
      `complete ${argument}`,
      'completion/complete',
      { ref, argument: { name: argument, value }, context: { arguments: context.arguments } },
      undefined,
    );
    return result.completion?.values ?? [];
  };
}

function completersFor(
  upstream: Upstream,
  ref: Record<string, string>,
  names: readonly string[],
): Record<string, Completer> {
  return Object.fromEntries(
    names.flatMap((name) => {
      const completer = upstreamCompleter(upstream, ref, name);
      return completer === undefined ? [] : [[name, completer]];
    }),
  );
}

/** Keeps only the fields that are set, as exact optional properties want. */
function definedFields<Fields extends Record<string, unknown>>(fields: Fields): Partial<Fields> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<Fields>;
}

/**
 * A prompt on the host that stands for an upstream's: its descriptor under
 * the exposed name, arguments passed on as they came (the upstream checks
 * them), and completion of each argument asked of the upstream.
 */
export function createProxyPrompt(upstream: Upstream, descriptor: PromptDescriptor, exposedName: string): Prompt {
  const argumentNames = (descriptor.arguments ?? []).map((argument) => argument.name);
  return {
    name: exposedName,
    descriptor: { ...descriptor, name: exposedName },
    arguments: z.looseObject({}),
    complete: completersFor(upstream, { type: 'ref/prompt', name: descriptor.name }, argumentNames),
    get: (args: unknown, context: CallContext) =>
      forward(
        upstream,
        `get the prompt ${descriptor.name}`,
        'prompts/get',
        { name: descriptor.name, arguments: args },
        context.signal,
      ),
  } as Prompt;
}

function readFrom(upstream: Upstream, uri: string, context: CallContext): Promise<ResourceContents[]> {
  return forward<{ contents: ResourceContents[] }>(
    upstream,
    `read ${uri}`,
    'resources/read',
    { uri },
    context.signal,
  ).then((result) => result.contents);
}

/**
 * A resource on the host, read from the upstream that lists it; its URI is
 * the upstream's, its name prefixed. A view (MCP Apps) read this way is told
 * the host's names of its server's tools (`viewToolNames`).
 */
export function createProxyResource(
  upstream: Upstream,
  descriptor: ResourceDescriptor,
  exposedName: string,
  viewToolNames: () => Record<string, string> = () => ({}),
): Resource {
  const { uri, title, description, mimeType, size, annotations, icons, _meta } = descriptor;
  return defineResource({
    uri,
    name: exposedName,
    ...definedFields({ title, description, mimeType, size, annotations, icons, meta: _meta }),
    read: async (context) => withViewToolNames(await readFrom(upstream, uri, context), viewToolNames()),
  } as ResourceDefinitionInput);
}

/**
 * A resource template on the host: reads of the URIs it matches go to the
 * upstream, and its variables are completed by the upstream.
 */
export function createProxyResourceTemplate(
  upstream: Upstream,
  descriptor: ResourceTemplateDescriptor,
  exposedName: string,
): ResourceTemplate {
  const { uriTemplate, title, description, mimeType, annotations, icons, _meta } = descriptor;
  const template = defineResourceTemplate({
    uriTemplate,
    name: exposedName,
    ...definedFields({ title, description, mimeType, annotations, icons, meta: _meta }),
    read: (uri, _variables, context) => readFrom(upstream, uri, context),
  } as ResourceTemplateDefinitionInput);
  const complete = completersFor(upstream, { type: 'ref/resource', uri: uriTemplate }, template.matcher.variables);
  return Object.freeze({ ...template, complete: Object.freeze(complete) });
}
