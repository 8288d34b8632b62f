import { type AuthInfo, type JsonRpcRequest, MetaKey } from '@toolshed/mcp-core';
import type { StateStore } from '@toolshed/state';
import { parkedCallKey } from './parked-upstream-calls.ts';

/** The answer for a request this replica answers itself. */
const answeredHere: Promise<undefined> = Promise.resolve(undefined);

/**
 * Where a 2026-era retry is to be answered: the replica holding the call it
 * continues, when that is another replica that lives and said where it
 * answers. A legacy upstream waits in the middle of a call on the connection
 * of the replica that started it, so only that replica can hand it the
 * answer; relaying the retry there means the call runs once, whichever
 * replica the load balancer picked. Everything else is answered where it arrives.
 */
export function retryRelayTarget(
  store: () => StateStore,
  ownEndpoint: () => string | undefined,
): (request: JsonRpcRequest, auth: AuthInfo | undefined) => Promise<string | undefined> {
  const holderEndpoint = async (request: JsonRpcRequest, auth: AuthInfo | undefined, name: string) => {
    const params = request.params ?? {};
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const client = (meta[MetaKey.clientInfo] ?? {}) as { name?: unknown; version?: unknown };
    const key = parkedCallKey(
      {
        subject: auth?.subject,
        clientName: typeof client.name === 'string' ? client.name : undefined,
        clientVersion: typeof client.version === 'string' ? client.version : undefined,
      },
      name,
      params.arguments ?? {},
    );
    const shared = store();
    const holder = await shared.parkedCalls.holder(key, Date.now());
    if (holder === undefined || holder.replica === shared.replica || !holder.alive) return undefined;
    if (holder.endpoint === undefined || holder.endpoint === ownEndpoint()) return undefined;
    return holder.endpoint;
  };
  // Every 2026-era request over HTTP asks this first: a first attempt, which most are, is answered without an async step.
  return (request, auth) => {
    const params = request.params ?? {};
    // Only a retry carries answers or state; a first attempt starts its call wherever it lands.
    if (request.method !== 'tools/call' || (params.requestState === undefined && params.inputResponses === undefined)) {
      return answeredHere;
    }
    return typeof params.name === 'string' ? holderEndpoint(request, auth, params.name) : answeredHere;
  };
}
