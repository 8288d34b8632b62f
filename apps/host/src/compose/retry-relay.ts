import { type AuthInfo, type JsonRpcRequest, MetaKey } from '@toolshed/mcp-core';
import type { StateStore } from '@toolshed/state';
import { parkedCallKey } from './parked-upstream-calls.ts';

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
  return async (request, auth) => {
    const params = request.params ?? {};
    // Only a retry carries answers or state; a first attempt starts its call wherever it lands.
    if (request.method !== 'tools/call' || (params.requestState === undefined && params.inputResponses === undefined)) {
      return undefined;
    }
    if (typeof params.name !== 'string') return undefined;
    const meta = (params._meta ?? {}) as Record<string, unknown>;
    const client = (meta[MetaKey.clientInfo] ?? {}) as { name?: unknown; version?: unknown };
    const key = parkedCallKey(
      {
        subject: auth?.subject,
        clientName: typeof client.name === 'string' ? client.name : undefined,
        clientVersion: typeof client.version === 'string' ? client.version : undefined,
      },
      params.name,
      params.arguments ?? {},
    );
    const shared = store();
    const holder = await shared.parkedCalls.holder(key, Date.now());
    if (holder === undefined || holder.replica === shared.replica || !holder.alive) return undefined;
    if (holder.endpoint === undefined || holder.endpoint === ownEndpoint()) return undefined;
    return holder.endpoint;
  };
}
