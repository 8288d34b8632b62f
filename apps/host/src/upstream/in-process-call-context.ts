import type { CallContext, ClientCapabilities, LogLevel } from '@toolshed/mcp-core';

/** Where a tool's log lines go: the host's own log, under the server's name. */
export type InProcessLog = (level: LogLevel, data: unknown) => void;

/** A client that offers no roots, as far as a mounted server can tell. */
function withoutRoots(capabilities: ClientCapabilities): ClientCapabilities {
  if (capabilities.roots === undefined) return capabilities;
  const { roots: _withheld, ...rest } = capabilities;
  return rest;
}

/**
 * The context a tool of a server mounted in this process runs with, made
 * from the context of the caller whose call it is. The tool reports
 * progress to that caller and asks that caller's user (elicitation,
 * confirmation, sampling), in the caller's era; it sees the caller's
 * client, version and verified identity. It follows `signal` (the caller's
 * cancellation and the host's time limit), not the caller's alone. It never
 * sees the caller's roots: one mounted server serves every caller, and a
 * filesystem server started without directories would take a remote
 * caller's roots as its grants. What it logs goes to the host's log.
 */
export function inProcessCallContext(caller: CallContext, signal: AbortSignal, log: InProcessLog): CallContext {
  const { info, capabilities } = caller.client;
  return {
    signal,
    protocolVersion: caller.protocolVersion,
    client: { info, capabilities: withoutRoots(capabilities) },
    auth: caller.auth,
    progress: (done, total, message) => caller.progress(done, total, message),
    log: (level, data) => log(level, data),
    elicit: (request) => caller.elicit(request),
    confirm: (message) => caller.confirm(message),
    sample: (request) => caller.sample(request),
    roots: () => Promise.resolve(undefined),
    closeStream: () => caller.closeStream(),
    continueAsTask: (statusMessage) => caller.continueAsTask(statusMessage),
  };
}
