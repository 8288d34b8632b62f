import type { JsonRpcPayload } from '../messages/jsonrpc-message.ts';

/**
 * A duplex channel of JSON-RPC messages. The shape is the one the official
 * SDKs use, so an SDK client transport and ours plug into each other.
 * `onmessage` receives parsed JSON that has not been validated yet.
 */
export interface Transport {
  start(): Promise<void>;
  send(message: JsonRpcPayload): Promise<void>;
  close(): Promise<void>;
  onmessage?: ((message: unknown) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
}
