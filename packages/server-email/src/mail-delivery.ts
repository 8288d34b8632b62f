import { ToolError } from '@toolshed/mcp-core';
import type { ComposedMessage } from './compose-message.ts';

/** What the receiving side said about one message. */
export interface DeliveryReceipt {
  accepted: string[];
  rejected: { address: string; reason: string }[];
  /** The SMTP server's last reply, or where the outbox file went. */
  response: string;
  /** The outbox file's name, in outbox mode. */
  outboxFile?: string | undefined;
}

/** Where messages go: an SMTP server, or the outbox directory. */
export interface MailDelivery {
  readonly kind: 'smtp' | 'outbox';
  /** Fails with a LocalError saying what to fix when the destination cannot be used. */
  verify(): Promise<void>;
  deliver(message: ComposedMessage): Promise<DeliveryReceipt>;
  close(): void;
}

/**
 * A failure whose outcome is unknown: the connection broke or timed out
 * after the message may have been accepted. A retry could send it twice, so
 * the idempotency key keeps this answer instead of allowing one.
 */
export class UncertainDeliveryError extends ToolError {}
