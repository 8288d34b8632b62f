import { findUnsafeCharacter } from './unsafe-characters.ts';

// RFC 5322 msg-id, in the dot-atom form every mailer writes: no spaces, no
// brackets or quotes inside, exactly one @.
const messageIdPattern =
  /^<?([!#-'*+\-/-9=?A-Z^-~]+(?:\.[!#-'*+\-/-9=?A-Z^-~]+)*@[!#-'*+\-/-9=?A-Z^-~[\]]+(?:\.[!#-'*+\-/-9=?A-Z^-~[\]]+)*)>?$/;

/** A Message-ID for In-Reply-To or References, with its angle brackets; or why it is not one. */
export function parseMessageId(input: string): { ok: true; value: string } | { ok: false; reason: string } {
  const unsafe = findUnsafeCharacter(input);
  if (unsafe !== undefined) return { ok: false, reason: `contains ${unsafe}` };
  const text = input.trim();
  const match = messageIdPattern.exec(text);
  if (match === null || text.length > 250 || text.startsWith('<') !== text.endsWith('>')) {
    return { ok: false, reason: 'is not a Message-ID of the form <id@host>' };
  }
  return { ok: true, value: `<${match[1]}>` };
}
