// A TCP forwarder on a fixed loopback port standing between a client and a server, for outages:
// - up: every connection is piped to `targetPort` (TLS passes through untouched);
// - down: every connection is reset as soon as it arrives and the open ones are cut (the host is
//   down);
// - stalled: nothing is closed and nothing gets through either way, open connections and new ones
//   alike (a network partition); what was sent meanwhile is delivered once the gate is up again.
//
// The gate listens on its port for its whole life. Closing the listener while down would hand the
// port back to the system, and on a busy machine another process's outgoing connection could take
// it as its local port before the gate listens again.
import net from 'node:net';

export interface TcpGate {
  port: number;
  up(): Promise<void>;
  down(): Promise<void>;
  stall(): Promise<void>;
  /** stops listening and cuts every connection (end of the test) */
  close(): Promise<void>;
}

export async function createTcpGate(targetPort: number): Promise<TcpGate> {
  let state: 'up' | 'down' | 'stalled' = 'down';
  const sockets = new Set<net.Socket>();
  const cutAll = () => {
    for (const socket of sockets) socket.destroy();
  };
  const server = net.createServer((socket) => {
    if (state === 'down') {
      socket.on('error', () => undefined);
      socket.resetAndDestroy();
      return;
    }
    const upstream = net.connect(targetPort, '127.0.0.1');
    for (const s of [socket, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => (s === socket ? upstream : socket).destroy());
    }
    socket.pipe(upstream).pipe(socket);
    if (state === 'stalled') {
      socket.pause();
      upstream.pause();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as net.AddressInfo).port,
    async up() {
      state = 'up';
      for (const socket of sockets) socket.resume();
    },
    async down() {
      state = 'down';
      cutAll();
    },
    async stall() {
      state = 'stalled';
      for (const socket of sockets) socket.pause();
    },
    async close() {
      state = 'down';
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
