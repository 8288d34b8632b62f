import type { JsonRpcId } from './jsonrpc-message.ts';

/** A map key for a request id: "1" and 1 are different ids. */
export function requestIdKey(id: JsonRpcId): string {
  return typeof id === 'string' ? `s${id}` : `n${id}`;
}
