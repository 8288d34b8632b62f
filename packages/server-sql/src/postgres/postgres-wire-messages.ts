/**
 * The extended-protocol messages a statement call sends, written straight
 * into one buffer: a call goes out as one write instead of some sixty small
 * ones (pg writes each message on its own). Every statement is unnamed,
 * its parameters are text or NULL and its results are text, as pg sends
 * them.
 */

/** Sync: the end of the call; the server answers ReadyForQuery. */
export const syncMessage: Buffer = Buffer.from([0x53, 0, 0, 0, 4]);
/** Flush: the server sends what it has answered so far, without ending the call as a Sync would. */
export const flushMessage: Buffer = Buffer.from([0x48, 0, 0, 0, 4]);

/** Execute of the unnamed portal again, for its next `rows` rows. */
export function executeMessage(rows: number): Buffer {
  const buffer = Buffer.allocUnsafe(10);
  buffer[0] = 0x45;
  buffer.writeInt32BE(9, 1);
  buffer[5] = 0;
  buffer.writeUInt32BE(rows, 6);
  return buffer;
}

/** Describe the unnamed portal. */
const describePortalMessage = Buffer.from([0x44, 0, 0, 0, 6, 0x50, 0]);

function utf8Length(text: string | null): number {
  return text === null ? 0 : Buffer.byteLength(text);
}

/** Parse, Bind and Execute of one statement; `describe` adds a Describe of its portal before the Execute. */
export function statementMessages(
  text: string,
  values: readonly (string | null)[],
  options: { rows: number; describe: boolean },
): Buffer {
  const textLength = Buffer.byteLength(text);
  const parseLength = 1 + 4 + 1 + textLength + 1 + 2;
  let valuesLength = 0;
  for (const value of values) valuesLength += 4 + utf8Length(value);
  const bindLength = 1 + 4 + 1 + 1 + 2 + 2 + valuesLength + 2 + 2;
  const executeLength = 1 + 4 + 1 + 4;
  const describeLength = options.describe ? describePortalMessage.length : 0;
  const buffer = Buffer.allocUnsafe(parseLength + bindLength + describeLength + executeLength);
  let offset = 0;
  // Parse: unnamed statement, its text, no parameter types.
  buffer[offset++] = 0x50;
  offset = buffer.writeInt32BE(parseLength - 1, offset);
  buffer[offset++] = 0;
  offset += buffer.write(text, offset, 'utf8');
  buffer[offset++] = 0;
  offset = buffer.writeInt16BE(0, offset);
  // Bind: unnamed portal and statement, every parameter as text, every result column as text.
  buffer[offset++] = 0x42;
  offset = buffer.writeInt32BE(bindLength - 1, offset);
  buffer[offset++] = 0;
  buffer[offset++] = 0;
  offset = buffer.writeInt16BE(0, offset);
  offset = buffer.writeInt16BE(values.length, offset);
  for (const value of values) {
    if (value === null) {
      offset = buffer.writeInt32BE(-1, offset);
    } else {
      const length = Buffer.byteLength(value);
      offset = buffer.writeInt32BE(length, offset);
      offset += buffer.write(value, offset, 'utf8');
    }
  }
  offset = buffer.writeInt16BE(1, offset);
  offset = buffer.writeInt16BE(0, offset);
  if (options.describe) offset += describePortalMessage.copy(buffer, offset);
  // Execute: the unnamed portal, at most `rows` rows (0: all of them).
  buffer[offset++] = 0x45;
  offset = buffer.writeInt32BE(executeLength - 1, offset);
  buffer[offset++] = 0;
  buffer.writeUInt32BE(options.rows, offset);
  return buffer;
}

/** Parse, Bind and Execute of each statement of a fixed list, without parameters, as one buffer. */
export function fixedStatementsMessages(texts: readonly string[]): Buffer {
  return Buffer.concat(texts.map((text) => statementMessages(text, [], { rows: 0, describe: false })));
}
