import type { PathGuard, RateLimiter } from '@toolshed/guards';
import type { EmailAddress } from './email-address.ts';
import type { EmailLimits, RecipientLogging, SendLogEntry } from './email-server-options.ts';
import type { IdempotencyStore } from './idempotency-store.ts';
import type { MailDelivery } from './mail-delivery.ts';
import type { RecipientPolicy } from './recipient-policy.ts';
import type { SendResult } from './send-result.ts';

/** What the three tools share: one server's configuration and state. */
export interface EmailServerContext {
  sender: EmailAddress;
  policy: RecipientPolicy;
  limits: EmailLimits;
  attachments: PathGuard | undefined;
  delivery: MailDelivery;
  sends: RateLimiter;
  idempotency: IdempotencyStore<SendResult>;
  confirmationRequired: boolean;
  logRecipients: RecipientLogging;
  log: (entry: SendLogEntry) => void;
  dnsServers: readonly string[] | undefined;
}
