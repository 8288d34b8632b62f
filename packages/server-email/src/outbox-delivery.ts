import { mkdirSync } from 'node:fs';
import { PathGuard } from '@toolshed/guards';
import { LocalError } from '@toolshed/mcp-core';
import type { MailDelivery } from './mail-delivery.ts';

/** `2026-11-22T09-41-07.123Z-3f9a1c2e.eml`: sorts by time, never collides. */
function outboxFileName(messageId: string, date: Date): string {
  const stamp = date.toISOString().replaceAll(':', '-');
  const id = messageId.slice(1, 9).replace(/[^A-Za-z0-9-]/g, '_');
  return `${stamp}-${id}.eml`;
}

/**
 * The embedded default: each message written as a standard .eml file (the
 * bytes an SMTP server would have received), atomically and never over an
 * existing file. Nothing leaves the machine. Bcc recipients are in the
 * envelope, not the file, as on the wire.
 */
export function createOutboxDelivery(directory: string): MailDelivery {
  let guard: PathGuard | undefined;
  const open = (): PathGuard => {
    if (guard !== undefined) return guard;
    try {
      mkdirSync(directory, { recursive: true, mode: 0o700 });
    } catch (error) {
      throw new LocalError('config_invalid', `The outbox ${directory} cannot be created: ${(error as Error).message}`);
    }
    guard = PathGuard.create([{ path: directory, access: 'write' }]);
    return guard;
  };
  return {
    kind: 'outbox',
    async verify() {
      open();
    },
    async deliver(message) {
      const outbox = open();
      const name = outboxFileName(message.messageId, new Date());
      await outbox.writeFile(await outbox.resolve(name, { access: 'write' }), message.raw, { exclusive: true });
      return {
        accepted: [...message.envelope.to],
        rejected: [],
        response: `written to the outbox as ${name}`,
        outboxFile: name,
      };
    },
    close() {},
  };
}
