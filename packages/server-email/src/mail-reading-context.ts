import type { PathGuard } from '@toolshed/guards';
import type { EmailLimits } from './email-server-options.ts';
import type { ImapConnection } from './imap-connection.ts';

/** What the reading and mailbox tools share: the connection, the caps, and what was seen of each mailbox. */
export interface MailReadingContext {
  connection: ImapConnection;
  limits: EmailLimits;
  /** Where save_attachment writes; undefined when saving is off. */
  saveDirectory: PathGuard | undefined;
  /**
   * The UIDVALIDITY each mailbox had when this server last reported UIDs from
   * it: a UID given back to a changing tool means that message only while the
   * mailbox still has it.
   */
  uidValidities: Map<string, bigint>;
}
