// The driver's server check can get stuck for good, and the Mongo adapter recovers from it.
//
// mongodb 7.9 (the latest at the time of writing) checks a server by writing a hello on the
// monitor's idle connection. When the server closed that connection just before the check (the
// socket is destroyed, its 'close' event not yet delivered), the write fails without an 'error'
// event and the driver waits for a 'drain' that never comes: no timeout covers that wait, so the
// check never ends, the monitor never checks again, and once a failed read has marked the server
// unknown, every read and health check waits out server selection for as long as the process
// lives. This is what made the legacy-store-down fault test fail in loaded CI runs. Here the race
// is made deterministic: the socket of the next check is destroyed just before the check is written.
import net from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { connectMongoLegacyStore } from '../../../src/platform/legacy/mongo-adapter.ts';
import type { LegacyStore } from '../../../src/platform/legacy/port.ts';
import {
  startMongoWireServer,
  type MongoWireServer,
} from '../../support/mongo-wire-server/index.ts';
import { pollUntil } from '../../support/poll.ts';
import { createTcpGate, type TcpGate } from '../../reliability/support/tcp-gate.ts';

const OP_MSG = 2013;
const LEGACY_ID = 'c0c0c0c0c0c0c0c0c0c0c001';

let mongo: MongoWireServer;
let gate: TcpGate;
let store: LegacyStore | undefined;
/** resolves once a server check was written on a connection closed just before it */
let checkWrittenOnClosedSocket: Promise<void>;

beforeAll(async () => {
  mongo = await startMongoWireServer();
  gate = await createTcpGate(Number(new URL(mongo.url).port));
  await gate.up();
  // The driver opens its sockets with net.createConnection; the first server check (an OP_MSG hello
  // after the handshake) written on one of them is preceded by the socket's destruction.
  const createConnection = net.createConnection;
  let wedge: () => void;
  checkWrittenOnClosedSocket = new Promise((resolve) => (wedge = resolve));
  let armed = false;
  vi.spyOn(net, 'createConnection').mockImplementation(((
    ...args: Parameters<typeof net.createConnection>
  ) => {
    const socket = createConnection(...args);
    const write = socket.write.bind(socket) as (chunk: unknown, ...rest: unknown[]) => boolean;
    socket.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (armed && isHelloCheck(chunk)) {
        armed = false;
        socket.destroy();
        wedge();
      }
      return write(chunk, ...rest);
    }) as typeof socket.write;
    return socket;
  }) as typeof net.createConnection);
  store = await connectMongoLegacyStore({
    url: `mongodb://127.0.0.1:${gate.port}`,
    dbName: 'stuck_monitor',
    // shorter than production's (5 s, 2 s) so the stuck check is noticed sooner; the wedge does not
    // depend on them: no timeout of the driver covers it
    connectTimeoutMs: 1_500,
    heartbeatMs: 500,
  });
  await store.upsert({
    domain: 'acme.example',
    legacyId: LEGACY_ID,
    title: 'Acme',
    socials: {},
    emails: [],
  });
  armed = true;
});

afterAll(async () => {
  vi.restoreAllMocks();
  await store?.close();
  await gate?.close();
  await mongo?.close();
});

/** an OP_MSG whose command is hello: the monitor's check (the handshake is an OP_QUERY) */
function isHelloCheck(chunk: unknown): boolean {
  if (!(chunk instanceof Uint8Array) || chunk.length < 27) return false;
  const bytes = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  if (bytes.readInt32LE(12) !== OP_MSG) return false;
  // header (16), flags (4), section kind 0 (1), document length (4), then the first element: type byte, name
  const name = bytes.toString('latin1', 26, bytes.indexOf(0, 26));
  return name === 'hello' || name === 'ismaster' || name === 'isMaster';
}

it('reads the legacy store again after the driver stuck on a check written on a closed connection', async () => {
  await checkWrittenOnClosedSocket;
  // the server goes away and comes back: a read fails and the driver marks the server unknown
  await gate.down();
  expect((await store!.health()).ok).toBe(false);
  await gate.up();

  const found = await pollUntil(
    async () => {
      const health = await store!.health();
      return health.ok ? await store!.findByDomains(['acme.example']) : undefined;
    },
    (result) => result !== undefined,
    25_000,
    500,
  );
  expect(found?.get('acme.example')?.legacyId).toBe(LEGACY_ID);
}, 60_000);
