import { EventEmitter } from 'node:events';
import { createRequire } from 'node:module';
import type mysql from 'mysql2';
import type { PoolConnection } from 'mysql2';

/**
 * Prepare and execute in one round trip on MariaDB: COM_STMT_PREPARE and a
 * COM_STMT_EXECUTE of statement id -1 ("the statement this connection
 * prepared last", MariaDB 10.2 and later) are written together. When the
 * prepare fails, the server answers the execute with an error as well, so a
 * statement the server refused is never run in its place. The statement is
 * still a server-side prepared statement, bound by the driver, one
 * statement only; mysql2 parses the answers, as for its own `execute`.
 *
 * mysql2 sends one command at a time and exports none of its commands, so
 * they are loaded from its own files.
 */

const mysql2Require = createRequire(createRequire(import.meta.url).resolve('mysql2'));

interface WritablePacket {
  buffer: Buffer;
  writeHeader(sequenceId: number): void;
}

interface ConnectionInternals {
  sequenceId: number;
  serverCapabilityFlags: number;
  _isMariaDB: boolean;
  config: { charsetNumber: number; timezone: string; clientFlags: number };
  write(buffer: Buffer): void;
  addCommand(command: unknown): void;
}

type State = (packet: unknown, connection: ConnectionInternals) => State | null;

interface CommandInternals extends EventEmitter {
  next: State | null;
  onResult?: (error: Error | null) => void;
}

interface PrepareCommand extends CommandInternals {
  query: string;
  prepareHeader: State;
}

interface ExecuteCommand extends CommandInternals {
  _connection: ConnectionInternals;
  _executeOptions: object;
  options: object;
  resultsetHeader: State;
}

const { Prepare, Execute } = mysql2Require('./lib/commands/index.js') as {
  Prepare: new (options: { sql: string }, callback: (error: Error | null) => void) => PrepareCommand;
  Execute: new (options: object) => ExecuteCommand;
};
const Packets = mysql2Require('./lib/packets/index.js') as {
  PrepareStatement: new (sql: string, charsetNumber: number) => { toPacket(): WritablePacket };
  Execute: new (
    id: number,
    parameters: readonly unknown[],
    charsetNumber: number,
    timezone: string,
    attributes: undefined,
    clientFlags: number,
    jsonAsString: boolean,
    parameterDefinitions: readonly unknown[],
  ) => { toPacket(): WritablePacket };
};
const ConnectionConfig = mysql2Require('./lib/connection_config.js') as {
  queryOptions(config: unknown, overrides: object): object;
};

/** COM_STMT_EXECUTE's statement id for "the statement prepared last". */
const lastPrepared = 0xff_ff_ff_ff;

/**
 * A prepare that is never served from mysql2's statement cache and never
 * added to it: the execute written beside it names no id, only "the last
 * one prepared", so the prepare must reach the server every time. The
 * server drops the statement at the connection reset that ends the call.
 */
class DirectPrepare extends Prepare {
  readonly #executePacket: WritablePacket;
  readonly #after: Buffer | undefined;

  constructor(
    sql: string,
    executePacket: WritablePacket,
    after: Buffer | undefined,
    done: (error: Error | null) => void,
  ) {
    super({ sql }, done);
    this.#executePacket = executePacket;
    this.#after = after;
  }

  start(_packet: unknown, connection: ConnectionInternals): State {
    const prepare = new Packets.PrepareStatement(this.query, connection.config.charsetNumber).toPacket();
    // Each command numbers its packets from 0; the prepare's answer comes back as 1.
    prepare.writeHeader(0);
    this.#executePacket.writeHeader(0);
    const packets = [prepare.buffer, this.#executePacket.buffer];
    if (this.#after !== undefined) packets.push(this.#after);
    connection.write(Buffer.concat(packets));
    connection.sequenceId = 1;
    return this.prepareHeader;
  }

  prepareDone(): null {
    this.onResult?.(null);
    return null;
  }
}

/**
 * Runs one statement as mysql2's `connection.execute` does, with the same
 * events ('fields', 'result', 'error', 'end'), in one round trip instead of
 * two. MariaDB only. `after` holds the packets of commands to send in the
 * same write, behind the execute; the caller queues the commands that read
 * their answers right after this one.
 */
export function executeDirect(
  connection: PoolConnection,
  options: { sql: string; rowsAsArray: boolean },
  values: readonly mysql.ExecuteValues[],
  after?: Buffer,
): EventEmitter {
  const internals = connection as unknown as ConnectionInternals;
  const events = new EventEmitter();
  const clientFlags = internals.config.clientFlags & (internals.serverCapabilityFlags || 0);
  const executePacket = new Packets.Execute(
    lastPrepared,
    values,
    internals.config.charsetNumber,
    internals.config.timezone,
    undefined,
    clientFlags,
    internals._isMariaDB,
    [],
  ).toPacket();
  let prepareError: Error | undefined;
  const prepare = new DirectPrepare(options.sql, executePacket, after, (error) => {
    if (error === null) return;
    prepareError = error;
    // A lost connection never gets to the execute; its answer to a refused prepare is the error that matters.
    if ((error as { fatal?: boolean }).fatal) {
      events.emit('error', error);
      events.emit('end');
    }
  });
  const execute = new Execute({ ...options, values });
  // Its packet went out with the prepare: when its turn comes, it only reads the answer, numbered 1.
  execute.next = function resume(this: ExecuteCommand, _packet, connection) {
    this._connection = connection;
    this.options = ConnectionConfig.queryOptions(connection.config, this._executeOptions);
    connection.sequenceId = 1;
    return this.resultsetHeader;
  };
  execute.on('fields', (fields) => events.emit('fields', fields));
  execute.on('result', (row) => events.emit('result', row));
  execute.on('error', (error: Error) => events.emit('error', prepareError ?? error));
  execute.on('end', () => events.emit('end'));
  internals.addCommand(prepare);
  internals.addCommand(execute);
  return events;
}
