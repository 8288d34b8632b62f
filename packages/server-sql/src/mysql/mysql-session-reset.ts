import type { PoolConnection } from 'mysql2';

/**
 * COM_RESET_CONNECTION and the SET that pins the next call's settings,
 * written to the server together and answered in one round trip. The server
 * reads commands from its socket in order, so the SET runs on the session
 * the reset just emptied: user variables, prepared statements, temporary
 * tables, named and table locks and any open transaction are gone, and the
 * connection goes back to the pool already set up for the next call.
 * mysql2 sends one command at a time, so this is a command of its own.
 */

const comQuery = 0x03;
const comResetConnection = 0x1f;
/** CLIENT_QUERY_ATTRIBUTES (MySQL 8.0.23 and later): COM_QUERY then carries an attribute count and set count. */
const clientQueryAttributes = 0x0800_0000;

/** The parts of a mysql2 packet this command reads. */
interface ReceivedPacket {
  isError(): boolean;
  asError(encoding: string): Error;
}

/** The parts of mysql2's connection the command uses, which its type definitions leave out. */
interface ConnectionInternals {
  sequenceId: number;
  clientEncoding: string;
  serverCapabilityFlags: number;
  config: { clientFlags: number };
  write(buffer: Buffer): void;
  addCommand(command: unknown): void;
  _statements?: { clear(): void };
}

function packet(sequenceId: number, body: Buffer): Buffer {
  const header = Buffer.alloc(4);
  header.writeUIntLE(body.length, 0, 3);
  header[3] = sequenceId;
  return Buffer.concat([header, body]);
}

/**
 * COM_RESET_CONNECTION and a COM_QUERY of `sql`, as the bytes to write: each
 * command starts its packets at sequence 0.
 */
export function resetAndPinPackets(connection: PoolConnection, sql: string): Buffer {
  const internals = connection as unknown as ConnectionInternals;
  const attributes = internals.config.clientFlags & internals.serverCapabilityFlags & clientQueryAttributes;
  const query = Buffer.concat([
    Buffer.from(attributes === 0 ? [comQuery] : [comQuery, 0, 1]),
    Buffer.from(sql, 'utf8'),
  ]);
  return Buffer.concat([packet(0, Buffer.from([comResetConnection])), packet(0, query)]);
}

class ResetAndPinCommand {
  /** The packets to write, or undefined when they went out already, behind the call's statement. */
  readonly #packets: Buffer | undefined;
  readonly #done: (error: Error | undefined) => void;
  #answered = 0;
  #error: Error | undefined;

  constructor(packets: Buffer | undefined, done: (error: Error | undefined) => void) {
    this.#packets = packets;
    this.#done = done;
  }

  /** mysql2 calls this when the connection is lost under the command. */
  onResult(error: Error): void {
    this.#done(error);
  }

  /** mysql2 calls this once to start (no packet), then with every packet the server sends; true when done. */
  execute(received: ReceivedPacket | undefined, connection: ConnectionInternals): boolean {
    if (received === undefined) {
      if (this.#packets !== undefined) connection.write(this.#packets);
      // Each answer is one packet with sequence 1.
      connection.sequenceId = 1;
      return false;
    }
    if (received.isError()) this.#error ??= received.asError(connection.clientEncoding);
    this.#answered++;
    if (this.#answered === 1) {
      // The server dropped every prepared statement; mysql2 must not hand out their ids again.
      connection._statements?.clear();
      connection.sequenceId = 1;
      return false;
    }
    this.#done(this.#error);
    return true;
  }
}

/**
 * Resets the session and runs `sql` (one SET) on it, in one round trip.
 * Rejects when either failed; the connection should then be dropped.
 */
export function resetAndPinSession(connection: PoolConnection, sql: string): Promise<void> {
  return readResetAndPin(connection, resetAndPinPackets(connection, sql));
}

/**
 * Reads the answers to `resetAndPinPackets` that were written already (behind
 * the call's statement, in the same write), once every command queued before
 * it has read its own; or writes `packets` first when they are given.
 */
export function readResetAndPin(connection: PoolConnection, packets?: Buffer): Promise<void> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const command = new ResetAndPinCommand(packets, (error) => {
      if (settled) return;
      settled = true;
      if (error === undefined) resolve();
      else reject(error);
    });
    (connection as unknown as ConnectionInternals).addCommand(command);
  });
}
