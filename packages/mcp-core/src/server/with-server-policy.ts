import type * as z from 'zod';
import type { CallContext, ConfirmOutcome, ElicitOutcome, ElicitRequest } from '../engine/call-context.ts';
import { canElicitForm } from '../engine/client-answers.ts';
import { type AskUser, confirmAction, elicitForm } from '../engine/create-elicitation.ts';
import { StoppableContext, wasStopped } from '../engine/request-stop.ts';
import type { ElicitationUnavailablePolicy } from '../engine/server-core.ts';
import { missingClientCapability } from '../errors/common-protocol-errors.ts';
import type { LogLevel } from '../logging/log-level.ts';
import { redactSecrets } from '../logging/redact-secrets.ts';
import type { Root, SamplingRequest, SamplingResult } from '../protocol/mcp-types.ts';
import { isModernProtocolVersion } from '../protocol/protocol-version.ts';

/** Any form answer: the tool's own schema checks it. Built on the first question, not at start. */
let anyAnswer: z.ZodObject<Record<string, never>, z.core.$loose> | undefined;

/**
 * A caller's context as this server's tools see it: the caller asks, unless
 * its client cannot show a form, which this server's policy answers as its
 * own connections in that era would. A class rather than an object of
 * closures, as the sessions' contexts are: one allocation a call.
 */
class PolicyContext extends StoppableContext implements CallContext {
  readonly #context: CallContext;
  readonly #policy: ElicitationUnavailablePolicy;

  constructor(context: CallContext, policy: ElicitationUnavailablePolicy) {
    super();
    this.#context = context;
    this.#policy = policy;
  }

  get signal(): AbortSignal {
    return this.#context.signal;
  }

  get stopped(): boolean {
    return wasStopped(this.#context);
  }

  get protocolVersion(): string {
    return this.#context.protocolVersion;
  }

  get client(): CallContext['client'] {
    return this.#context.client;
  }

  get auth(): CallContext['auth'] {
    return this.#context.auth;
  }

  progress(done: number, total?: number, message?: string): void {
    this.#context.progress(done, total, message);
  }

  log(level: LogLevel, data: unknown, logger?: string): void {
    this.#context.log(level, redactSecrets(data), logger);
  }

  elicit<Shape extends z.ZodObject>(request: ElicitRequest<Shape>): Promise<ElicitOutcome<z.output<Shape>>> {
    return elicitForm(this.#ask, this.#policy, request);
  }

  confirm(message: string): Promise<ConfirmOutcome> {
    return confirmAction(this.#ask, this.#policy, message);
  }

  sample(request: SamplingRequest): Promise<SamplingResult> {
    return this.#context.sample(request);
  }

  roots(): Promise<Root[] | undefined> {
    return this.#context.roots();
  }

  closeStream(): void {
    this.#context.closeStream();
  }

  continueAsTask(statusMessage?: string): Promise<boolean> {
    return this.#context.continueAsTask(statusMessage);
  }

  /** Made on demand: most calls never ask the user. */
  get #ask(): AskUser {
    return (message, requestedSchema, key) => this.#askUser(message, requestedSchema, key);
  }

  async #askUser(...[message, requestedSchema, key]: Parameters<AskUser>): ReturnType<AskUser> {
    const context = this.#context;
    if (!canElicitForm(context.client.capabilities, context.protocolVersion)) {
      // The 2026 revision's rule for a request that needs an undeclared capability, as a 2026 request would get it.
      if (this.#policy === 'fail' && isModernProtocolVersion(context.protocolVersion)) {
        throw missingClientCapability({ elicitation: { form: {} } }, 'this request needs an answer from the user');
      }
      return { action: 'unavailable', reason: 'the client did not declare the elicitation capability' };
    }
    // The form as given, checked against the tool's own schema by elicitForm once answered.
    // Imported here, not at start: the engine never imports zod up front, so a server without it never loads it.
    anyAnswer ??= (await import('zod')).looseObject({});
    return context.elicit({ message, schema: anyAnswer, requestedSchema, ...(key === undefined ? {} : { key }) });
  }
}

/** `context` under this server's policy for questions its client cannot show. */
export function withServerPolicy(context: CallContext, policy: ElicitationUnavailablePolicy): CallContext {
  return new PolicyContext(context, policy);
}
