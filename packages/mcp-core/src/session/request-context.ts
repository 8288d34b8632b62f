import type * as z from 'zod';
import type { AuthInfo, CallContext, ConfirmOutcome, ElicitOutcome, ElicitRequest } from '../engine/call-context.ts';
import { type AskUser, confirmAction, elicitForm } from '../engine/create-elicitation.ts';
import { type RequestStop, StoppableContext } from '../engine/request-stop.ts';
import type { ElicitationUnavailablePolicy } from '../engine/server-core.ts';
import type { LogLevel } from '../logging/log-level.ts';
import type { JsonRpcId } from '../messages/jsonrpc-message.ts';
import type { Implementation, Root, SamplingRequest, SamplingResult } from '../protocol/mcp-types.ts';
import { askUser, type ClientState, type RootsCache, sample } from './client-features.ts';
import type { OutgoingRequests } from './outgoing-requests.ts';

/** What a request context needs from its session; one object per session, shared by its requests. */
export interface SessionServices {
  readonly outgoing: OutgoingRequests;
  readonly roots: RootsCache;
  readonly policy: ElicitationUnavailablePolicy;
  readonly clientInfo: Implementation | undefined;
  log(level: LogLevel, data: unknown, logger: string | undefined, requestId: JsonRpcId): void;
  closeStream(requestId: JsonRpcId): void;
}

/**
 * The context of one request in a 2025-era session. A class rather than an
 * object of closures: one allocation per request on the hot path.
 */
export class RequestContext extends StoppableContext implements CallContext {
  readonly progress: CallContext['progress'];
  readonly auth: AuthInfo | undefined;
  readonly requestId: JsonRpcId;
  readonly #services: SessionServices;
  readonly #client: ClientState;
  readonly #stop: RequestStop;

  constructor(
    services: SessionServices,
    client: ClientState,
    requestId: JsonRpcId,
    stop: RequestStop,
    progress: CallContext['progress'],
    auth: AuthInfo | undefined,
  ) {
    super();
    this.#services = services;
    this.#client = client;
    this.requestId = requestId;
    this.#stop = stop;
    this.progress = progress;
    this.auth = auth;
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  get stopped(): boolean {
    return this.#stop.aborted;
  }

  get protocolVersion(): string {
    return this.#client.protocolVersion;
  }

  get client(): CallContext['client'] {
    return { info: this.#services.clientInfo, capabilities: this.#client.capabilities };
  }

  log(level: LogLevel, data: unknown, logger?: string): void {
    this.#services.log(level, data, logger, this.requestId);
  }

  elicit<Shape extends z.ZodObject>(request: ElicitRequest<Shape>): Promise<ElicitOutcome<z.output<Shape>>> {
    return elicitForm(this.#ask, this.#services.policy, request);
  }

  confirm(message: string): Promise<ConfirmOutcome> {
    return confirmAction(this.#ask, this.#services.policy, message);
  }

  sample(request: SamplingRequest): Promise<SamplingResult> {
    return sample(this.#services.outgoing, this.#client, this, request);
  }

  roots(): Promise<Root[] | undefined> {
    return this.#services.roots.get(this.#services.outgoing, this.#client, this);
  }

  closeStream(): void {
    this.#services.closeStream(this.requestId);
  }

  /** A 2025-era session has no tasks: the call simply goes on. */
  continueAsTask(): Promise<boolean> {
    return Promise.resolve(false);
  }

  /** Made on demand: most calls never ask the user, and a closure per request is not free. */
  get #ask(): AskUser {
    return (message, requestedSchema) => askUser(this.#services.outgoing, this.#client, this, message, requestedSchema);
  }
}
