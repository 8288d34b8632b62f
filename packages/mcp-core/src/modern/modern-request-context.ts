import type * as z from 'zod';
import type { AuthInfo, CallContext, ConfirmOutcome, ElicitOutcome, ElicitRequest } from '../engine/call-context.ts';
import {
  canElicitForm,
  canListRoots,
  canSample,
  readElicitAnswer,
  readRootsAnswer,
  readSamplingAnswer,
  samplingUnavailable,
} from '../engine/client-answers.ts';
import { type AskUser, confirmAction, elicitForm } from '../engine/create-elicitation.ts';
import { isStopped, type StopSource } from '../engine/linked-stop.ts';
import { StoppableContext } from '../engine/request-stop.ts';
import type { ElicitationUnavailablePolicy } from '../engine/server-core.ts';
import { missingClientCapability } from '../errors/common-protocol-errors.ts';
import { type LogLevel, passesLogLevel } from '../logging/log-level.ts';
import { redactSecrets } from '../logging/redact-secrets.ts';
import type { JsonRpcNotification } from '../messages/jsonrpc-message.ts';
import type { Root, SamplingRequest, SamplingResult } from '../protocol/mcp-types.ts';
import type { TaskEscalation } from '../tasks/task-escalation.ts';
import { type InputRequest, type InputRound, questionKey } from './input-round.ts';
import type { RequestMeta } from './request-meta.ts';

/**
 * The context of one 2026-era request, filled from its `_meta` alone. Asking
 * the client (elicit, confirm, sample, roots) goes through the request's
 * input round: answered from the retry, or ending the attempt with
 * `input_required`. Requests that may not ask (everything but tools/call,
 * prompts/get and resources/read) have no round and find the client unable to.
 */
export class ModernRequestContext extends StoppableContext implements CallContext {
  readonly progress: CallContext['progress'];
  readonly auth: AuthInfo | undefined;
  readonly #meta: RequestMeta;
  readonly #round: InputRound | undefined;
  readonly #policy: ElicitationUnavailablePolicy;
  readonly #notify: (notification: JsonRpcNotification) => void;
  readonly #escalation: TaskEscalation | undefined;
  readonly #stop: StopSource;

  constructor(
    meta: RequestMeta,
    round: InputRound | undefined,
    policy: ElicitationUnavailablePolicy,
    stop: StopSource,
    progress: CallContext['progress'],
    auth: AuthInfo | undefined,
    notify: (notification: JsonRpcNotification) => void,
    escalation?: TaskEscalation,
  ) {
    super();
    this.#meta = meta;
    this.#round = round;
    this.#policy = policy;
    this.#stop = stop;
    this.auth = auth;
    this.#notify = notify;
    this.#escalation = escalation;
    // A task carries no progress notifications: its progress is its status message.
    this.progress =
      escalation === undefined
        ? progress
        : (done, total, message) => {
            const task = escalation.task;
            if (task !== undefined) {
              task.progress(done, total, message);
              return;
            }
            escalation.noteProgress(done, total, message);
            progress(done, total, message);
          };
  }

  get signal(): AbortSignal {
    return this.#stop.signal;
  }

  get stopped(): boolean {
    return isStopped(this.#stop);
  }

  get protocolVersion(): string {
    return this.#meta.protocolVersion;
  }

  get client(): CallContext['client'] {
    return { info: this.#meta.clientInfo, capabilities: this.#meta.capabilities };
  }

  /** Only when the request named a log level: without one the revision forbids log notifications. */
  log(level: LogLevel, data: unknown, logger?: string): void {
    const threshold = this.#meta.logLevel;
    // Tasks carry no log notifications either: the request they came from has been answered.
    if (this.#escalation?.task !== undefined) return;
    if (threshold === undefined || isStopped(this.#stop) || !passesLogLevel(level, threshold)) return;
    const params: Record<string, unknown> = { level, data: redactSecrets(data) };
    if (logger !== undefined) params.logger = logger;
    this.#notify({ jsonrpc: '2.0', method: 'notifications/message', params });
  }

  elicit<Shape extends z.ZodObject>(request: ElicitRequest<Shape>): Promise<ElicitOutcome<z.output<Shape>>> {
    return elicitForm(this.#ask, this.#policy, request);
  }

  confirm(message: string): Promise<ConfirmOutcome> {
    return confirmAction(this.#ask, this.#policy, message);
  }

  async sample(request: SamplingRequest): Promise<SamplingResult> {
    if (this.#round === undefined) throw samplingUnavailable();
    // The revision's rule: a request that needs a capability the client did not declare is -32021.
    if (!canSample(this.#meta.capabilities)) {
      throw missingClientCapability({ sampling: {} }, 'this request asks the client for a model completion');
    }
    return readSamplingAnswer(await this.#askClient('sampling/createMessage', { ...request }));
  }

  async roots(): Promise<Root[] | undefined> {
    if (this.#round === undefined || !canListRoots(this.#meta.capabilities)) return undefined;
    return readRootsAnswer(await this.#askClient('roots/list', {}));
  }

  /** Each 2026-era response has a stream of its own; there is nothing to end early. */
  closeStream(): void {}

  continueAsTask(statusMessage?: string): Promise<boolean> {
    return this.#escalation?.begin(statusMessage) ?? Promise.resolve(false);
  }

  /** Before the call is a task, a round of the request; after, one of the task's input requests. */
  #askClient(method: InputRequest['method'], params: Record<string, unknown>, key?: string) {
    const task = this.#escalation?.task;
    if (task !== undefined) return task.ask(method, params, questionKey(method, params, key));
    return (this.#round as InputRound).ask(method, params, key);
  }

  get #ask(): AskUser {
    return async (message, requestedSchema, key) => {
      if (this.#round === undefined) {
        return { action: 'unavailable', reason: 'this kind of request cannot ask the user' };
      }
      if (!canElicitForm(this.#meta.capabilities, this.#meta.protocolVersion)) {
        if (this.#policy === 'fail') {
          throw missingClientCapability({ elicitation: { form: {} } }, 'this request needs an answer from the user');
        }
        return { action: 'unavailable', reason: 'the client did not declare the elicitation capability' };
      }
      const params = { mode: 'form', message, requestedSchema };
      return readElicitAnswer(await this.#askClient('elicitation/create', params, key));
    };
  }
}
