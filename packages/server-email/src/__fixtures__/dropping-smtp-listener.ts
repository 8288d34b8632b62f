import type { AddressInfo } from 'node:net';
import { createServer, type Socket } from 'node:net';

export interface DroppingSmtpListener {
  port: number;
  /** The messages that arrived in full (up to the lone dot), each as its raw text. */
  received: string[];
  /** Commands clients sent, in order. */
  commands: string[];
  /** Drop the connection at the end of the next message's data, before the reply (default true). */
  dropAfterData: boolean;
  close(): Promise<void>;
}

/**
 * A plain SMTP listener on 127.0.0.1 that takes a whole message and then
 * closes the connection instead of answering it: the moment when the sender
 * cannot know whether the message was accepted.
 */
export async function startDroppingSmtpListener(): Promise<DroppingSmtpListener> {
  const sockets = new Set<Socket>();
  const state: DroppingSmtpListener = {
    port: 0,
    received: [],
    commands: [],
    dropAfterData: true,
    close: async () => undefined,
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
    socket.write('220 drop.test ESMTP\r\n');
    let buffered = '';
    let inData = false;
    socket.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('latin1');
      while (buffered.length > 0) {
        if (inData) {
          const end = buffered.indexOf('\r\n.\r\n');
          if (end < 0) return;
          state.received.push(buffered.slice(0, end));
          buffered = buffered.slice(end + 5);
          inData = false;
          if (state.dropAfterData) {
            socket.destroy();
            return;
          }
          socket.write('250 2.0.0 queued\r\n');
          continue;
        }
        const end = buffered.indexOf('\r\n');
        if (end < 0) return;
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        state.commands.push(line);
        const verb = line.split(' ')[0]?.toUpperCase() ?? '';
        if (verb === 'EHLO') socket.write('250-drop.test\r\n250 8BITMIME\r\n');
        else if (verb === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (verb === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 OK\r\n');
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
