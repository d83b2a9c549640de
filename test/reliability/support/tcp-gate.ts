// A TCP forwarder on a fixed loopback port that can be taken down and brought back: while down,
// nothing listens there (connections are refused, as when a receiver's host is down); while up,
// every connection is piped to `targetPort`. TLS passes through untouched.
import net from 'node:net';
import { freePort } from '../../support/free-port.ts';

export interface TcpGate {
  port: number;
  up(): Promise<void>;
  down(): Promise<void>;
}

export async function createTcpGate(targetPort: number): Promise<TcpGate> {
  const port = await freePort();
  let server: net.Server | undefined;
  const sockets = new Set<net.Socket>();
  return {
    port,
    async up() {
      if (server) return;
      server = net.createServer((socket) => {
        const upstream = net.connect(targetPort, '127.0.0.1');
        for (const s of [socket, upstream]) {
          sockets.add(s);
          s.on('close', () => sockets.delete(s));
          s.on('error', () => (s === socket ? upstream : socket).destroy());
        }
        socket.pipe(upstream).pipe(socket);
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', resolve);
      });
    },
    async down() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => closing.close(() => resolve()));
    },
  };
}
