import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

/**
 * What the fake server does, for what Dovecot will not do:
 * - `no-starttls`: greets and logs in happily, never offers STARTTLS;
 * - `refuse-starttls`: offers STARTTLS and answers it with NO;
 * - `silent`: accepts the connection and never says a word;
 * - `silent-after-login`: greets, logs in, then answers nothing;
 * - `drop-after-greeting`: greets, then closes at the first command.
 */
export type FakeImapBehaviour =
  | 'no-starttls'
  | 'refuse-starttls'
  | 'silent'
  | 'silent-after-login'
  | 'drop-after-greeting';

export interface FakeImapServer {
  port: number;
  /** Every line clients sent, in order. */
  received: string[];
  connections: number;
  close(): Promise<void>;
}

function answer(socket: Socket, behaviour: FakeImapBehaviour, line: string): void {
  const [tag = '*', command = ''] = line.split(' ');
  const upper = command.toUpperCase();
  const capabilities = behaviour === 'refuse-starttls' ? 'IMAP4rev1 STARTTLS LOGINDISABLED' : 'IMAP4rev1 AUTH=PLAIN';
  if (behaviour === 'drop-after-greeting') {
    socket.destroy();
    return;
  }
  if (upper === 'CAPABILITY') socket.write(`* CAPABILITY ${capabilities}\r\n${tag} OK done\r\n`);
  else if (upper === 'STARTTLS') socket.write(`${tag} NO STARTTLS is not available today\r\n`);
  else if (upper === 'LOGIN' || upper === 'AUTHENTICATE') {
    socket.write(`${tag} OK [CAPABILITY ${capabilities}] logged in\r\n`);
  } else if (upper === 'LOGOUT') socket.end(`* BYE\r\n${tag} OK bye\r\n`);
  else if (behaviour === 'silent-after-login') return;
  else if (upper === 'LIST') socket.write(`* LIST () "/" INBOX\r\n${tag} OK done\r\n`);
  else socket.write(`${tag} OK done\r\n`);
}

/** A scripted IMAP server on 127.0.0.1, plain text, recording what clients send. */
export async function startFakeImapServer(behaviour: FakeImapBehaviour): Promise<FakeImapServer> {
  const sockets = new Set<Socket>();
  const state: FakeImapServer = { port: 0, received: [], connections: 0, close: async () => undefined };
  const server = createServer((socket) => {
    state.connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    if (behaviour === 'silent') return;
    const capabilities = behaviour === 'refuse-starttls' ? 'IMAP4rev1 STARTTLS LOGINDISABLED' : 'IMAP4rev1 AUTH=PLAIN';
    socket.write(`* OK [CAPABILITY ${capabilities}] fake IMAP ready\r\n`);
    let buffered = '';
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      for (let end = buffered.indexOf('\r\n'); end >= 0; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        state.received.push(line);
        answer(socket, behaviour, line);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.port = (server.address() as AddressInfo).port;
  state.close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => resolve());
    });
  return state;
}
