import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client, ClientErrorExtensions, ConnectConfig, ServerHostKeyAlgorithm } from 'ssh2';
import { hostKeyAlgorithms, knownHostKeys, knownHostsName } from './known-hosts.ts';
import { describeSshBastion, type SshBastion } from './ssh-bastion.ts';

/** Where a database is reached through one bastion, and how the bastion is trusted and logged in to. */
export interface SshTunnelSettings {
  bastion: SshBastion;
  /** The private key file, for messages. */
  keyFile: string;
  privateKey: Buffer;
  passphrase?: string | undefined;
  /** Read at every connection, so that an edit to it applies without a restart. */
  knownHostsFile: string;
  /** The database server as the bastion names it: the host and port of the database URL. */
  target: { host: string; port: number };
  /** How long the bastion may take to connect and log in. */
  readyTimeoutMs: number;
}

/**
 * The tunnel's local end, where the database driver connects instead of the
 * database server: a unix socket `DIRECTORY/.s.PGSQL.PORT` (libpq's naming,
 * which pg needs) in a directory only this user may enter, so no other user
 * of the machine can borrow the tunnel, as they could a port on 127.0.0.1.
 */
export interface TunnelEndpoint {
  directory: string;
  port: number;
}

/** The port in the socket's name: any number does, the socket is the tunnel's own. */
const socketPort = 5432;

/** Host key algorithms ssh2 can verify; a known_hosts line of another type cannot be used. */
const verifiableKeyTypes = new Set([
  'ssh-ed25519',
  'ecdsa-sha2-nistp256',
  'ecdsa-sha2-nistp384',
  'ecdsa-sha2-nistp521',
  'rsa-sha2-512',
  'rsa-sha2-256',
  'ssh-rsa',
]);

/** How long the SSH connection stays up with no database connection through it. */
const idleCloseMs = 60_000;

/** ssh2, loaded when a tunnel first connects: a server without tunnels never loads it. */
function loadSsh2(): typeof import('ssh2') {
  return createRequire(import.meta.url)('ssh2') as typeof import('ssh2');
}

/** `ssh-ed25519 SHA256:…`, as ssh-keygen -l shows a key. */
function fingerprint(blob: Buffer): string {
  const typeLength = blob.length >= 4 ? blob.readUInt32BE(0) : 0;
  const type = blob.subarray(4, 4 + typeLength).toString('latin1') || 'key';
  return `${type} SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
}

/**
 * An SSH tunnel to one database server through a bastion, as `ssh -L` makes
 * it: a local listener whose every connection is forwarded by the bastion to
 * the database. The SSH connection opens on the first database
 * connection, is opened again after it drops, and closes after a minute
 * without any. The bastion must show a host key that the known_hosts file
 * holds for it; there is no way to accept another.
 */
export class SshTunnel {
  readonly #settings: SshTunnelSettings;
  readonly #sockets = new Set<Socket>();
  #listener: Promise<{ server: Server; endpoint: TunnelEndpoint }> | undefined;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  /** The client of #connecting, ended by close() rather than waited for. */
  #handshaking: Client | undefined;
  #idleTimer: NodeJS.Timeout | undefined;
  #closed = false;
  #drops = 0;
  #forwardFailure: { count: number; reason: string } = { count: 0, reason: '' };

  constructor(settings: SshTunnelSettings) {
    this.#settings = settings;
  }

  /** `user@host:port`, for messages. */
  get bastion(): string {
    return describeSshBastion(this.#settings.bastion);
  }

  /** How many times an open SSH connection has dropped: a call that spans a drop failed because of it. */
  get drops(): number {
    return this.#drops;
  }

  /**
   * How many connections the bastion could not forward to the database, and
   * why the last one failed: a driver only sees its connection closed.
   */
  get forwardFailure(): { count: number; reason: string } {
    return this.#forwardFailure;
  }

  /** Opens the local end once, in a new directory of mode 0700. */
  listen(): Promise<TunnelEndpoint> {
    this.#listener ??= new Promise((resolve, reject) => {
      const directory = mkdtempSync(join(tmpdir(), 'toolshed-sql-tunnel-'));
      const server = createServer((socket) => this.#forward(socket));
      server.once('error', (error) => {
        rmSync(directory, { recursive: true, force: true });
        reject(error);
      });
      server.listen(join(directory, `.s.PGSQL.${socketPort}`), () => {
        // Past listening, a failure is one connection's, handled where it is forwarded.
        server.on('error', () => {});
        resolve({ server, endpoint: { directory, port: socketPort } });
      });
    });
    return this.#listener.then(({ endpoint }) => endpoint);
  }

  /**
   * Resolves once the SSH connection is up, opening it when it is not;
   * rejects with an Error whose message says why the bastion cannot be used:
   * a host key known_hosts does not hold, a refused key, or no answer.
   */
  async ready(): Promise<void> {
    await this.#connect();
  }

  #connect(): Promise<Client> {
    if (this.#closed) return Promise.reject(new Error('the SSH tunnel is closed'));
    if (this.#client !== undefined) return Promise.resolve(this.#client);
    this.#connecting ??= this.#open().finally(() => {
      this.#connecting = undefined;
    });
    return this.#connecting;
  }

  #open(): Promise<Client> {
    const { bastion, knownHostsFile } = this.#settings;
    const name = knownHostsName(bastion.host, bastion.port);
    let known: ReturnType<typeof knownHostKeys>;
    try {
      known = knownHostKeys(readFileSync(knownHostsFile, 'utf8'), name);
    } catch (error) {
      return Promise.reject(
        new Error(
          `the bastion ${this.bastion} cannot be checked: the known_hosts file ${knownHostsFile} cannot be read (${(error as Error).message})`,
        ),
      );
    }
    const types = hostKeyAlgorithms(known.trusted.map((key) => key.type)).filter((type) =>
      verifiableKeyTypes.has(type),
    );
    if (types.length === 0) {
      return Promise.reject(
        new Error(
          `the bastion ${this.bastion} has no key in ${knownHostsFile} (looked up as ${name}); add its host key there after checking its fingerprint (ssh-keyscan -p ${bastion.port} ${bastion.host} shows it)`,
        ),
      );
    }
    let refusedKey: string | undefined;
    const client = new (loadSsh2().Client)();
    const config: ConnectConfig = {
      host: bastion.host,
      port: bastion.port,
      username: bastion.user,
      privateKey: this.#settings.privateKey,
      ...(this.#settings.passphrase === undefined ? {} : { passphrase: this.#settings.passphrase }),
      hostVerifier: (key: Buffer) => {
        const trusted =
          !known.revoked.some((revoked) => revoked.equals(key)) && known.trusted.some(({ blob }) => blob.equals(key));
        if (!trusted) refusedKey = fingerprint(key);
        return trusted;
      },
      algorithms: { serverHostKey: types as ServerHostKeyAlgorithm[] },
      readyTimeout: this.#settings.readyTimeoutMs,
      keepaliveInterval: 15_000,
      keepaliveCountMax: 3,
    };
    this.#handshaking = client;
    return new Promise<Client>((resolve, reject) => {
      let ready = false;
      client.on('ready', () => {
        ready = true;
        if (this.#closed) {
          client.end();
          reject(new Error('the SSH tunnel is closed'));
          return;
        }
        this.#client = client;
        this.#armIdleClose();
        resolve(client);
      });
      client.on('error', (error: Error & ClientErrorExtensions) => {
        if (!ready) reject(new Error(this.#reason(error, refusedKey, name)));
      });
      client.on('close', () => {
        if (!ready) reject(new Error(`the bastion ${this.bastion} closed the connection before it was ready`));
        if (this.#client !== client) return;
        // Connections through a dropped tunnel are dead: ending them lets the drivers see it at once.
        this.#client = undefined;
        this.#drops++;
        for (const socket of this.#sockets) socket.destroy();
      });
      try {
        client.connect(config);
        // Each database call is a small request awaiting a small answer: Nagle's algorithm would hold them back.
        client.setNoDelay(true);
      } catch (error) {
        reject(new Error(`the bastion ${this.bastion} cannot be used: ${(error as Error).message}`));
      }
    })
      .catch((error: unknown) => {
        client.end();
        throw error;
      })
      .finally(() => {
        if (this.#handshaking === client) this.#handshaking = undefined;
      });
  }

  /** Why the SSH connection failed, in words the operator and the model can act on. */
  #reason(error: Error & ClientErrorExtensions, refusedKey: string | undefined, name: string): string {
    const { knownHostsFile, keyFile, bastion, readyTimeoutMs } = this.#settings;
    if (refusedKey !== undefined) {
      return `the bastion ${this.bastion} showed a host key (${refusedKey}) that ${knownHostsFile} does not hold for ${name}, so nothing was sent to it; someone may be intercepting the connection, and if the bastion's key was changed on purpose, replace its line in that file`;
    }
    if (/host key/i.test(error.message)) {
      return `the bastion ${this.bastion} offers none of the host key types ${knownHostsFile} holds for ${name} (${error.message}), so nothing was sent to it`;
    }
    if (error.level === 'client-authentication') {
      return `the bastion ${this.bastion} refused the key ${keyFile} for the user ${bastion.user} (authentication failed); put its public key in that user's authorized_keys on the bastion`;
    }
    if (error.level === 'client-timeout') {
      return `the bastion ${this.bastion} did not complete the SSH handshake within ${readyTimeoutMs} ms`;
    }
    return `the bastion ${this.bastion} cannot be reached (${error.message})`;
  }

  /** One database connection, forwarded by the bastion to the database server. */
  #forward(socket: Socket): void {
    this.#sockets.add(socket);
    this.#disarmIdleClose();
    socket.on('error', () => {});
    socket.once('close', () => {
      this.#sockets.delete(socket);
      if (this.#sockets.size === 0) this.#armIdleClose();
    });
    const { host, port } = this.#settings.target;
    this.#connect().then(
      (client) => {
        if (socket.destroyed) return;
        client.forwardOut('127.0.0.1', 0, host, port, (error, channel) => {
          if (error) {
            const count = this.#forwardFailure.count + 1;
            this.#forwardFailure = {
              count,
              reason: `the bastion ${this.bastion} could not connect to ${host}:${port} (${error.message.replace(/^\(SSH\) /, '')})`,
            };
          }
          if (error || socket.destroyed) {
            channel?.close();
            socket.destroy();
            return;
          }
          channel.on('error', () => socket.destroy());
          channel.once('close', () => socket.destroy());
          socket.once('close', () => channel.close());
          socket.pipe(channel).pipe(socket);
        });
      },
      () => socket.destroy(),
    );
  }

  #armIdleClose(): void {
    this.#disarmIdleClose();
    if (this.#client === undefined || this.#sockets.size > 0) return;
    const client = this.#client;
    this.#idleTimer = setTimeout(() => {
      if (this.#client === client && this.#sockets.size === 0) {
        this.#client = undefined;
        client.end();
      }
    }, idleCloseMs);
    this.#idleTimer.unref();
  }

  #disarmIdleClose(): void {
    if (this.#idleTimer !== undefined) clearTimeout(this.#idleTimer);
    this.#idleTimer = undefined;
  }

  /** Ends the SSH connection, every connection through it and the local listener. */
  async close(): Promise<void> {
    this.#closed = true;
    this.#disarmIdleClose();
    for (const socket of this.#sockets) socket.destroy();
    const client = this.#client;
    this.#client = undefined;
    client?.end();
    this.#handshaking?.destroy();
    await this.#connecting?.catch(() => {});
    if (this.#listener !== undefined) {
      const { server, endpoint } = await this.#listener;
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(endpoint.directory, { recursive: true, force: true });
    }
  }
}
