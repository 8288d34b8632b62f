import type * as z from 'zod';
import type { LogLevel } from '../logging/log-level.ts';
import type {
  ClientCapabilities,
  Implementation,
  Root,
  SamplingRequest,
  SamplingResult,
} from '../protocol/mcp-types.ts';

/** What the user answered when asked, or why they could not be asked. */
export type ElicitOutcome<Content> =
  | { action: 'accept'; content: Content }
  | { action: 'decline' }
  | { action: 'cancel' }
  /** The client cannot ask its user (it declared no form elicitation). */
  | { action: 'unavailable'; reason: string };

export interface ConfirmOutcome {
  /** True only when the user explicitly said yes. */
  confirmed: boolean;
  /**
   * What the client did with the question. `accept` without `confirmed`: the
   * user answered, but not with a yes — an unchecked box, or an answer that
   * does not fit the question. `unavailable`: nobody could be asked.
   */
  action: ElicitOutcome<unknown>['action'];
}

/** A form to show the user: a flat object of strings, numbers, booleans, enums and multi-select enums. */
export interface ElicitRequest<Shape extends z.ZodObject> {
  message: string;
  /** The form's fields; the answer is validated against it. */
  schema: Shape;
  /**
   * The form exactly as the client should see it, when zod cannot say it
   * (titled enums with `oneOf`/`anyOf` of `const` and `title`, legacy
   * `enumNames`). Default: derived from `schema`.
   */
  requestedSchema?: Record<string, unknown>;
  /**
   * The question's name in a 2026-era `inputRequests` map, for clients that
   * answer by name. Default: derived from the question, so an answer can only
   * be taken for the question it was given to.
   */
  key?: string;
}

/** Who made the request, when the transport authenticated it (HTTP with auth on). */
export interface AuthInfo {
  /** The token's subject (`sub`), or the static token's label. */
  readonly subject: string | undefined;
  readonly scopes: readonly string[];
  /** The OAuth client the token was issued to (`client_id` or `azp`), when known. */
  readonly clientId: string | undefined;
  /** Seconds since the epoch at which the token expires, when it does. */
  readonly expiresAt: number | undefined;
  /** The verified JWT claims; empty for static tokens. Never the token itself. */
  readonly claims: Readonly<Record<string, unknown>>;
}

/**
 * What a tool's `run` — and a resource's `read`, a prompt's `get` — receives
 * besides its arguments. The same in every protocol era: the session (2025)
 * or the request's `_meta` (2026) fills it.
 */
export interface CallContext {
  /** Aborted when the client cancels the call or the connection closes. */
  readonly signal: AbortSignal;
  readonly protocolVersion: string;
  readonly client: { readonly info: Implementation | undefined; readonly capabilities: ClientCapabilities };
  /** Reports progress when the client asked for it; values must increase. */
  progress(done: number, total?: number, message?: string): void;
  /** Sends a log message to the client, filtered by its level, secrets redacted. */
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Asks the user to fill in a form. */
  elicit<Shape extends z.ZodObject>(request: ElicitRequest<Shape>): Promise<ElicitOutcome<z.output<Shape>>>;
  /**
   * Asks the user a yes/no question; anything but an explicit yes is a no,
   * including an answer that does not fit the question.
   */
  confirm(message: string): Promise<ConfirmOutcome>;
  /**
   * Asks the client's model for a completion (`sampling/createMessage`).
   * Throws a ToolError the model can read when the client cannot sample.
   */
  sample(request: SamplingRequest): Promise<SamplingResult>;
  /**
   * The client's roots, asked fresh unless the client promised to announce
   * changes; `undefined` when the client does not offer roots.
   */
  roots(): Promise<Root[] | undefined>;
  /** Who is calling, when the transport authenticated the request. */
  readonly auth: AuthInfo | undefined;
  /**
   * Ends the HTTP stream that would carry this call's response, so the
   * client reconnects after its retry interval and receives the rest from
   * the event store: for long calls behind proxies that cut idle
   * connections. Does nothing on stdio and in memory.
   */
  closeStream(): void;
  /**
   * Lets the call go on as a task, in the 2026 era, when the client declared
   * the tasks extension and the tool allows tasks: the client is answered
   * with a task at once and reads the result later. Resolves `true` when the
   * task exists (then only `tasks/cancel` or the server closing aborts
   * `signal`), `false` at once when the call cannot become one; the work
   * goes on either way. Questions asked before it are rounds of the request
   * (asked before anything happens); questions after it are the task's.
   */
  continueAsTask(statusMessage?: string): Promise<boolean>;
}
