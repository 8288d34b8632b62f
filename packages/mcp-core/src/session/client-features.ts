import type { ElicitOutcome } from '../engine/tool-context.ts';
import { ProtocolError } from '../errors/protocol-error.ts';
import { ToolError } from '../errors/tool-error.ts';
import { isPlainObject } from '../messages/is-plain-object.ts';
import type { JsonRpcId } from '../messages/jsonrpc-message.ts';
import type { ClientCapabilities, Root, SamplingRequest, SamplingResult } from '../protocol/mcp-types.ts';
import type { OutgoingRequests } from './outgoing-requests.ts';

/** What the client declared at initialize, and the negotiated version. */
export interface ClientState {
  readonly capabilities: ClientCapabilities;
  readonly protocolVersion: string;
}

/** Everything a request asks of the client goes out related to that request, so HTTP puts it on its stream. */
export interface RequestScope {
  readonly signal: AbortSignal;
  readonly requestId: JsonRpcId;
}

function formElicitationSupported(client: ClientState): boolean {
  const elicitation = client.capabilities.elicitation;
  if (!isPlainObject(elicitation) || client.protocolVersion < '2025-06-18') return false;
  // An empty object predates modes and means form; otherwise form must be listed.
  return Object.keys(elicitation).length === 0 || 'form' in elicitation;
}

/** Asks the user through `elicitation/create`; a client that cannot is `unavailable`, never a silent answer. */
export async function askUser(
  requests: OutgoingRequests,
  client: ClientState,
  scope: RequestScope,
  message: string,
  requestedSchema: Record<string, unknown>,
): Promise<ElicitOutcome<unknown>> {
  if (!formElicitationSupported(client)) {
    return { action: 'unavailable', reason: 'the client did not declare the elicitation capability' };
  }
  let result: Record<string, unknown>;
  try {
    result = await requests.request('elicitation/create', { message, requestedSchema }, scope.signal, scope.requestId);
  } catch (error) {
    if (scope.signal.aborted) throw error;
    if (ProtocolError.isInstance(error)) {
      return { action: 'unavailable', reason: `the client refused to ask (${error.message.slice(0, 200)})` };
    }
    throw error;
  }
  const { action, content } = result;
  if (action === 'accept') return { action, content };
  if (action === 'decline' || action === 'cancel') return { action };
  return { action: 'unavailable', reason: 'the client answered the question with an unknown action' };
}

/** Asks the client's model through `sampling/createMessage`, when the client declared it can. */
export async function sample(
  requests: OutgoingRequests,
  client: ClientState,
  scope: RequestScope,
  request: SamplingRequest,
): Promise<SamplingResult> {
  if (!isPlainObject(client.capabilities.sampling)) {
    throw new ToolError(
      'This action needs the client to run a model completion (sampling), but the client did not declare sampling. Do the reasoning yourself or use a client that supports sampling.',
    );
  }
  let result: Record<string, unknown>;
  try {
    result = await requests.request('sampling/createMessage', { ...request }, scope.signal, scope.requestId);
  } catch (error) {
    if (!scope.signal.aborted && ProtocolError.isInstance(error)) {
      throw new ToolError(`The client did not complete the sampling request: ${error.message.slice(0, 300)}`);
    }
    throw error;
  }
  if (typeof result.model !== 'string' || !isPlainObject(result.content) || typeof result.role !== 'string') {
    throw new ToolError('The client answered the sampling request without a role, content and model.');
  }
  return result as SamplingResult;
}

/** The client's roots, with a cache that holds only while the client promised to announce changes. */
export class RootsCache {
  #roots: Promise<Root[]> | undefined;

  invalidate(): void {
    this.#roots = undefined;
  }

  async get(requests: OutgoingRequests, client: ClientState, scope: RequestScope): Promise<Root[] | undefined> {
    const roots = client.capabilities.roots;
    if (!isPlainObject(roots)) return undefined;
    const fetch = async (): Promise<Root[]> => {
      const result = await requests.request('roots/list', {}, scope.signal, scope.requestId);
      const list = Array.isArray(result.roots) ? result.roots : [];
      return list.filter((root): root is Root => isPlainObject(root) && typeof root.uri === 'string');
    };
    if (roots.listChanged !== true) return fetch();
    this.#roots ??= fetch();
    try {
      return await this.#roots;
    } catch (error) {
      this.#roots = undefined;
      throw error;
    }
  }
}
