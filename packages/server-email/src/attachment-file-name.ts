/** Names Windows reserves in any directory, with any extension. */
const reservedOnWindows = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³]|conin\$|conout\$)(?:\..*)?$/i;
const maxNameLength = 150;

/**
 * A name a sender chose, made safe to create in the save directory: the last
 * path segment only, no separators, controls, invisible characters or
 * characters Windows refuses, no leading dot (nothing hidden), no reserved
 * device name, and short enough for any file system.
 */
export function safeAttachmentFileName(proposed: string | undefined, fallback: string): string {
  const lastSegment = (proposed ?? '').split(/[/\\]/).pop() ?? '';
  let name = lastSegment
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .replace(/[<>:"|?*]/g, '_')
    .replace(/^[.\s]+/, '')
    .replace(/[.\s]+$/, '')
    .trim();
  if (name === '' || name === '.' || name === '..') name = fallback;
  if (reservedOnWindows.test(name)) name = `_${name}`;
  if (name.length > maxNameLength) {
    const dot = name.lastIndexOf('.');
    const extension = dot > 0 && name.length - dot <= 16 ? name.slice(dot) : '';
    name = `${name.slice(0, maxNameLength - extension.length)}${extension}`;
  }
  return name;
}

/** `invoice.pdf`, then `invoice (2).pdf`, `invoice (3).pdf` … */
export function numberedFileName(name: string, number: number): string {
  if (number <= 1) return name;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${number})${name.slice(dot)}` : `${name} (${number})`;
}
