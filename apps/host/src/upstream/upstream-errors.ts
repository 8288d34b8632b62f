/** A JSON-RPC error an upstream answered with. */
export class UpstreamRpcError extends Error {
  readonly code: number;
  readonly data: unknown;

  constructor(code: number, message: string, data?: unknown) {
    super(message);
    this.name = 'UpstreamRpcError';
    this.code = code;
    this.data = data;
  }
}

/** The connection closed while a request waited for its answer. */
export class UpstreamClosedError extends UpstreamRpcError {
  constructor(message: string) {
    super(-32000, message);
    this.name = 'UpstreamClosedError';
  }
}

/** Connecting failed; `legacyNextTime` says the server showed itself legacy on the way down. */
export class UpstreamConnectError extends Error {
  readonly legacyNextTime: boolean;

  constructor(message: string, legacyNextTime = false) {
    super(message);
    this.name = 'UpstreamConnectError';
    this.legacyNextTime = legacyNextTime;
  }
}
