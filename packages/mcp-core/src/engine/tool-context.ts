import type * as z from 'zod';
import type { LogLevel } from '../logging/log-level.ts';
import type { ClientCapabilities, Implementation } from '../protocol/mcp-types.ts';

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
  action: ElicitOutcome<unknown>['action'];
}

/** A form to show the user: a flat object of strings, numbers, booleans and enums. */
export interface ElicitRequest<Shape extends z.ZodObject> {
  message: string;
  schema: Shape;
}

/**
 * What a tool's `run` receives besides its arguments. The same in every
 * protocol era: the session (2025) or the request's `_meta` (2026) fills it.
 */
export interface ToolContext {
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
  /** Asks the user a yes/no question; anything but an explicit yes is a no. */
  confirm(message: string): Promise<ConfirmOutcome>;
}
