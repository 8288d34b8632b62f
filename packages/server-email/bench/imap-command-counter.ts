/**
 * A TCP proxy on 127.0.0.1 in front of Dovecot's plain IMAP port that counts
 * what a client asks: each command by name, the round trips (each time the
 * client speaks again after the server answered), and the bytes each way.
 * Plain IMAP without STARTTLS is what makes the commands readable; the login
 * crosses only the loopback.
 */
import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

export interface ImapTraffic {
  /** Commands by name (`UID FETCH`, `EXAMINE`, …), tagged lines only. */
  commands: Map<string, number>;
  roundTrips: number;
  bytesToServer: number;
  bytesToClient: number;
}

export interface ImapCommandCounter {
  port: number;
  /** What crossed since the last reset. */
  traffic(): ImapTraffic;
  reset(): void;
  close(): Promise<void>;
}

function emptyTraffic(): ImapTraffic {
  return { commands: new Map(), roundTrips: 0, bytesToServer: 0, bytesToClient: 0 };
}

// A client's command line: a tag, then the command, `UID` joined to the one it qualifies.
const commandLine = /^[A-Za-z0-9.]+ (UID [A-Za-z]+|[A-Za-z]+)/;

export async function startImapCommandCounter(targetPort: number): Promise<ImapCommandCounter> {
  let counted = emptyTraffic();
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(targetPort, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    let serverSpokeLast = true;
    let partial = '';
    client.on('data', (chunk: Buffer) => {
      counted.bytesToServer += chunk.length;
      if (serverSpokeLast) counted.roundTrips++;
      serverSpokeLast = false;
      const lines = (partial + chunk.toString('latin1')).split('\r\n');
      partial = lines.pop() ?? '';
      for (const line of lines) {
        const name = commandLine.exec(line)?.[1]?.toUpperCase();
        if (name !== undefined) counted.commands.set(name, (counted.commands.get(name) ?? 0) + 1);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      counted.bytesToClient += chunk.length;
      serverSpokeLast = true;
      client.write(chunk);
    });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('error', () => to.destroy());
      from.on('close', () => {
        open.delete(from);
        to.destroy();
      });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    traffic: () => counted,
    reset() {
      counted = emptyTraffic();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** One line: the commands by name and count, round trips and bytes. */
export function trafficLine(traffic: ImapTraffic): string {
  const commands = [...traffic.commands]
    .sort(([left], [right]) => left.localeCompare(right))
    .map(([name, count]) => `${count} ${name}`)
    .join(', ');
  return `${commands || 'no commands'}; ${traffic.roundTrips} round trips; ${traffic.bytesToServer} B sent, ${traffic.bytesToClient} B received`;
}
