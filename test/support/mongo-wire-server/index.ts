// A small MongoDB wire-protocol server for tests only — never a default. No MongoDB server can be
// installed on the machines this project is built on, so the Mongo adapter's suite runs the real
// driver against this server (and against a real MongoDB whenever MONGODB_URL is set).
// It answers as a standalone MongoDB 7.0 on 127.0.0.1, keeps collections in memory, and implements
// only the commands our adapter's driver calls need (commands.ts).
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { runCommand } from './commands.ts';
import { Databases } from './collections.ts';
import { encodeReply, OP_QUERY, parseRequest, takeMessages } from './wire.ts';

export interface MongoWireServer {
  /** mongodb://127.0.0.1:<port> — pass to MongoClient */
  url: string;
  close(): Promise<void>;
}

/** The handshake is the only thing the driver sends as OP_QUERY; anything else there is refused. */
const HANDSHAKE_COMMANDS = new Set(['hello', 'isMaster', 'ismaster']);

export async function startMongoWireServer(): Promise<MongoWireServer> {
  const databases = new Databases();
  const sockets = new Set<net.Socket>();
  let connections = 0;
  let replies = 0;

  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const context = { databases, connectionId: ++connections };
    let buffered: Buffer = Buffer.alloc(0);

    socket.on('data', (chunk) => {
      const { messages, rest } = takeMessages(Buffer.concat([buffered, chunk]));
      buffered = rest;
      for (const message of messages) {
        let request;
        try {
          request = parseRequest(message);
        } catch {
          socket.destroy(); // a frame we cannot read leaves the stream unusable, as on a real server
          return;
        }
        const name = Object.keys(request.command)[0] ?? '';
        const reply =
          request.header.opCode === OP_QUERY && !HANDSHAKE_COMMANDS.has(name)
            ? {
                ok: 0,
                errmsg: `OP_QUERY is only supported for the handshake, not '${name}'`,
                code: 352,
                codeName: 'UnsupportedOpQueryCommand',
              }
            : runCommand(request.command, context);
        if (!request.noReply) socket.write(encodeReply(request, ++replies, reply));
      }
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;

  return {
    url: `mongodb://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        for (const socket of sockets) socket.destroy();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
