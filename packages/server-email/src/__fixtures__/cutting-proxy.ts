import type { AddressInfo } from 'node:net';
import { connect, createServer, type Socket } from 'node:net';

export interface CuttingProxy {
  port: number;
  /** Connections made through it so far. */
  connections: number;
  /** Drops every connection open now, as a network failure would. */
  cut(): void;
  /** Keeps what the server sends from reaching the client until `release`, as a server slow to answer would. */
  hold(): void;
  /** Passes on what was held, in order, and everything after it. */
  release(): void;
  close(): Promise<void>;
}

/** A TCP proxy on 127.0.0.1 to a local port, whose connections a test can cut, or whose answers it can hold. */
export async function startCuttingProxy(targetPort: number): Promise<CuttingProxy> {
  const open = new Set<Socket>();
  let holding = false;
  const held: { to: Socket; chunk: Buffer }[] = [];
  const proxy: CuttingProxy = {
    port: 0,
    connections: 0,
    cut() {
      for (const socket of open) socket.destroy();
      open.clear();
    },
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const { to, chunk } of held.splice(0)) if (!to.destroyed) to.write(chunk);
    },
    close: async () => undefined,
  };
  const server = createServer((client) => {
    proxy.connections++;
    const upstream = connect(targetPort, '127.0.0.1');
    open.add(client);
    open.add(upstream);
    client.pipe(upstream);
    upstream.on('data', (chunk: Buffer) => {
      if (holding) held.push({ to: client, chunk });
      else client.write(chunk);
    });
    for (const [from, to] of [
      [client, upstream],
      [upstream, client],
    ] as const) {
      from.on('error', () => to.destroy());
      from.on('close', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  proxy.port = (server.address() as AddressInfo).port;
  proxy.close = () =>
    new Promise<void>((resolve) => {
      proxy.cut();
      server.close(() => resolve());
    });
  return proxy;
}
