import type { ElicitOutcome } from '../engine/call-context.ts';
import {
  canElicitForm,
  canSample,
  readElicitAnswer,
  readRootsAnswer,
  readSamplingAnswer,
  samplingUnavailable,
} from '../engine/client-answers.ts';
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

/** Asks the user through `elicitation/create`; a client that cannot is `unavailable`, never a silent answer. */
export async function askUser(
  requests: OutgoingRequests,
  client: ClientState,
  scope: RequestScope,
  message: string,
  requestedSchema: Record<string, unknown>,
): Promise<ElicitOutcome<unknown>> {
  if (!canElicitForm(client.capabilities, client.protocolVersion)) {
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
  return readElicitAnswer(result);
}

/** Asks the client's model through `sampling/createMessage`, when the client declared it can. */
export async function sample(
  requests: OutgoingRequests,
  client: ClientState,
  scope: RequestScope,
  request: SamplingRequest,
): Promise<SamplingResult> {
  if (!canSample(client.capabilities)) throw samplingUnavailable();
  let result: Record<string, unknown>;
  try {
    result = await requests.request('sampling/createMessage', { ...request }, scope.signal, scope.requestId);
  } catch (error) {
    if (!scope.signal.aborted && ProtocolError.isInstance(error)) {
      throw new ToolError(`The client did not complete the sampling request: ${error.message.slice(0, 300)}`);
    }
    throw error;
  }
  return readSamplingAnswer(result);
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
      return readRootsAnswer(result);
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
