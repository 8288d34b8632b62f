import type { AuthInfo } from '../engine/call-context.ts';
import type { JsonRpcId, JsonRpcPayload } from '../messages/jsonrpc-message.ts';

/** Where an outgoing message belongs: the request it answers or was sent while serving. */
export interface TransportSendOptions {
  relatedRequestId?: JsonRpcId;
  /**
   * The verified identity of the caller a request is sent on behalf of. Only
   * the in-memory pair carries it, to a server in the same process; every
   * transport that leaves the process ignores it, so an identity never
   * reaches a child process or a remote server.
   */
  authInfo?: AuthInfo;
}

/** What the transport knows about an incoming message beyond its content. */
export interface MessageExtra {
  authInfo?: AuthInfo;
  /** On a client: the request this message was sent in the course of, when the transport can tell. */
  relatedRequestId?: JsonRpcId;
}

/**
 * A duplex channel of JSON-RPC messages. The shape is the one the official
 * SDKs use, so an SDK client transport and ours plug into each other.
 * `onmessage` receives parsed JSON that has not been validated yet.
 */
export interface Transport {
  start(): Promise<void>;
  /** Streamed transports (HTTP) route by `relatedRequestId`; others ignore it. */
  send(message: JsonRpcPayload, options?: TransportSendOptions): Promise<void>;
  close(): Promise<void>;
  /** Streamed transports only: end the stream carrying that request's response early (see CallContext.closeStream). */
  closeStream?(relatedRequestId: JsonRpcId): void;
  onmessage?: ((message: unknown, extra?: MessageExtra) => void) | undefined;
  onclose?: (() => void) | undefined;
  onerror?: ((error: Error) => void) | undefined;
  /** The session this transport carries, when it has one (a 2025-era Streamable HTTP session). */
  sessionId?: string | undefined;
  /** What telemetry calls the carrier: `pipe` for stdio, `tcp` for HTTP. */
  readonly networkTransport?: 'pipe' | 'tcp';
}
