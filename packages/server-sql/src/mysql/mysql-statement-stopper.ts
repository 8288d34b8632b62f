import mysql from 'mysql2';

/**
 * Stops statements on the server from a second connection: `KILL QUERY` ends
 * the statement and keeps its connection, `KILL CONNECTION` ends both. A
 * client that only gives up leaves the statement running on the server; this
 * is what makes a runaway stop. An account may kill its own threads without
 * any privilege, so a reader can do it.
 */
export class MysqlStatementStopper {
  private readonly options: mysql.ConnectionOptions;
  private connection: mysql.Connection | undefined;

  constructor(options: mysql.ConnectionOptions) {
    this.options = options;
  }

  private open(): mysql.Connection {
    if (this.connection === undefined) {
      const connection = mysql.createConnection(this.options);
      // A broken stopper connection is replaced on the next kill.
      connection.on('error', () => {
        if (this.connection === connection) this.connection = undefined;
      });
      this.connection = connection;
    }
    return this.connection;
  }

  private kill(statement: string): Promise<void> {
    return new Promise((resolve) => {
      const connection = this.open();
      connection.query(statement, (error) => {
        // "Unknown thread id" means it had finished already; anything else drops this connection.
        if (error !== null && (error as { fatal?: boolean }).fatal && this.connection === connection) {
          this.connection = undefined;
          connection.destroy();
        }
        resolve();
      });
    });
  }

  /** Ends the statement running on a thread; the thread's connection stays usable. */
  killQuery(threadId: number): Promise<void> {
    return this.kill(`KILL QUERY ${Math.trunc(threadId)}`);
  }

  /** Ends a thread and its connection. */
  killConnection(threadId: number): Promise<void> {
    return this.kill(`KILL CONNECTION ${Math.trunc(threadId)}`);
  }

  close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (connection === undefined) return Promise.resolve();
    return new Promise((resolve) => connection.end(() => resolve()));
  }
}
