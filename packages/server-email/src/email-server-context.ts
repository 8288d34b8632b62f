import type { PathGuard, RateLimiter } from '@toolshed/guards';
import type { ComposedMessage } from './compose-message.ts';
import type { EmailAddress } from './email-address.ts';
import type { EmailLimits, RecipientLogging, SendLogEntry } from './email-server-options.ts';
import type { MailDelivery } from './mail-delivery.ts';
import type { MailReadingContext } from './mail-reading-context.ts';
import type { RecipientPolicy } from './recipient-policy.ts';
import type { SendRecords } from './send-records.ts';

/** What the sending tools share: one server's configuration and state. */
export interface EmailServerContext {
  sender: EmailAddress;
  policy: RecipientPolicy;
  limits: EmailLimits;
  attachments: PathGuard | undefined;
  delivery: MailDelivery;
  sends: RateLimiter;
  /** Idempotency keys and sends in doubt, kept in the state store: shared by replicas, kept across restarts. */
  records: SendRecords;
  confirmationRequired: boolean;
  logRecipients: RecipientLogging;
  log: (entry: SendLogEntry) => void;
  dnsServers: readonly string[] | undefined;
  /** Whether the reading tools are there, to point the model at the Sent mailbox. */
  readsMail: boolean;
  /** The mailbox replies and forwards read their original from; undefined without IMAP. */
  reading: MailReadingContext | undefined;
  /** This account's own addresses, never added to a reply-all. */
  ownAddresses: readonly string[];
  /** Keeps a copy of a message whose send ended uncertain; returns where, or undefined when there is no outbox for it. */
  keepUncertain: (message: ComposedMessage) => Promise<string | undefined>;
}
