// The legacy store on MongoDB (MONGODB_URL set), with the official driver.
//
// Collection store_summaries in MONGODB_DB, one document per store:
//   { _id: domain, legacyId, title, description, screenshotUrl,
//     socials: { instagram, facebook, tiktok, twitter, youtube, pinterest },
//     emails: [string], phones: [string], lastCrawledAt: Date | null }
// The domain is the _id, so lookups by domain use the built-in _id index; legacyId has a unique
// index (as legacy_id has in the JSONB table), created on connect — createIndexes with the same
// spec is a no-op, so every replica may run it at every start. lastCrawledAt is a BSON date so
// the collection stays queryable by time; readers get it back as an ISO string (summary.ts).
import { MongoClient, type Collection } from 'mongodb';
import type { Logger } from '../logger.ts';
import type { LegacyHealth, LegacyStore, LegacySummary } from './port.ts';
import {
  canonicalBatch,
  canonicalForWrite,
  canonicalFromDocument,
  distinctKeys,
  elapsedMs,
  type CanonicalSummary,
} from './summary.ts';

export const MONGO_COLLECTION = 'store_summaries';

type StoredSummary = Omit<CanonicalSummary, 'domain' | 'lastCrawledAt'> & {
  _id: string;
  lastCrawledAt: Date | null;
};

function toStored({ domain, lastCrawledAt, ...rest }: CanonicalSummary): StoredSummary {
  return {
    _id: domain,
    ...rest,
    lastCrawledAt: lastCrawledAt === null ? null : new Date(lastCrawledAt),
  };
}

export interface MongoLegacyStoreOptions {
  /** a connected client; the store owns it from here on and closes it on close() */
  client: MongoClient;
  dbName: string;
  logger?: Logger;
}

/** The store over an already connected client (tests pass one with command monitoring on). */
export async function createMongoLegacyStore({
  client,
  dbName,
  logger,
}: MongoLegacyStoreOptions): Promise<LegacyStore> {
  const db = client.db(dbName);
  const collection: Collection<StoredSummary> = db.collection<StoredSummary>(MONGO_COLLECTION);
  await collection.createIndexes([{ key: { legacyId: 1 }, name: 'legacyId_unique', unique: true }]);
  logger?.info(
    { backend: 'mongo', db: dbName, collection: MONGO_COLLECTION },
    'legacy store ready',
  );

  async function findBy(field: '_id' | 'legacyId', keys: readonly string[]) {
    const found = new Map<string, LegacySummary>();
    if (keys.length === 0) return found;
    const wanted = distinctKeys(keys);
    // limit = batchSize = number of keys: the driver then asks for one batch more than the limit,
    // so the server answers everything in the first reply and closes the cursor (no getMore).
    const docs = await collection
      .find({ [field]: { $in: wanted } }, { limit: wanted.length, batchSize: wanted.length })
      .toArray();
    for (const doc of docs) {
      const summary = canonicalFromDocument(doc);
      found.set(field === '_id' ? summary.domain : summary.legacyId, summary);
    }
    return found;
  }

  return {
    source: `mongo:${MONGO_COLLECTION}`,
    findByDomains: (domains) => findBy('_id', domains),
    findByLegacyIds: (ids) => findBy('legacyId', ids),
    async upsert(summary) {
      const doc = toStored(canonicalForWrite(summary));
      await collection.replaceOne({ _id: doc._id }, doc, { upsert: true });
    },
    async upsertMany(summaries) {
      const docs = canonicalBatch(summaries).map(toStored);
      if (docs.length === 0) return;
      await collection.bulkWrite(
        docs.map((doc) => ({
          replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true },
        })),
        { ordered: false },
      );
    },
    async moveDomain(from, to) {
      const doc = await collection.findOne({ _id: from });
      if (!doc) return;
      // the old document goes first: legacyId is unique, and _id (the domain) cannot change in place
      await collection.deleteMany({ _id: { $in: [from, to] } });
      await collection.insertOne({ ...doc, _id: to });
    },
    async health(): Promise<LegacyHealth> {
      const started = performance.now();
      try {
        await db.command({ ping: 1 });
        return { ok: true, backend: 'mongo', latencyMs: elapsedMs(started) };
      } catch (error) {
        return { ok: false, backend: 'mongo', error: (error as Error).message };
      }
    },
    close: () => client.close(),
  };
}

export interface ConnectMongoLegacyStoreOptions {
  url: string;
  dbName: string;
  logger?: Logger;
  /** the driver's connect and server-selection timeout (MONGODB_CONNECT_TIMEOUT_MS) */
  connectTimeoutMs: number;
  /** how often the driver's monitor checks the server (MONGODB_HEARTBEAT_MS) */
  heartbeatMs: number;
}

export async function connectMongoLegacyStore({
  url,
  dbName,
  logger,
  connectTimeoutMs,
  heartbeatMs,
}: ConnectMongoLegacyStoreOptions): Promise<LegacyStore> {
  const stuckCheckMs = stuckCheckLimitMs(connectTimeoutMs, heartbeatMs);
  const connect = async (onStuck: () => void) => {
    // A down server should fail a read or a health check within seconds, not the driver's 30 s,
    // and one that comes back should be found within seconds too: the monitor rechecks a server it
    // lost every heartbeat, 10 s by default, and under load the first reads after its return
    // could keep timing out for longer than that. The monitor's check of a connection it already
    // holds waits connectTimeoutMS for the answer (30 s by default): a connection that went silent
    // (a partition, or one cut just as the check was written on it) held the monitor that long, and
    // the server stayed unknown, every read failing, well after it was back. A timed-out check
    // also interrupts the reads waiting on that server's connections.
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: connectTimeoutMs,
      connectTimeoutMS: connectTimeoutMs,
      heartbeatFrequencyMS: heartbeatMs,
      appName: 'store-intelligence-gateway',
    });
    // watched from the start: the first check of the server runs during connect()
    const stopWatching = watchServerChecks(client, stuckCheckMs, onStuck);
    try {
      await client.connect();
      const store = await createMongoLegacyStore({ client, dbName, logger });
      return {
        ...store,
        async close() {
          stopWatching();
          await store.close();
        },
      };
    } catch (error) {
      stopWatching();
      await client.close();
      throw error;
    }
  };
  const store = reconnectingLegacyStore(connect, stuckCheckMs, logger);
  try {
    await store.connected();
  } catch (error) {
    // The legacy store only enriches stores: start without it and connect once it answers.
    logger?.warn(
      { err: { message: (error as Error).message } },
      'legacy store unreachable at start: serving without it until it answers',
    );
  }
  return store;
}

/**
 * How long one check of the server may run before it counts as stuck. A check on a new connection
 * takes at most connectTimeoutMS to connect plus connectTimeoutMS for the handshake; a streamed
 * check (a MongoDB that supports it) answers within heartbeatFrequencyMS; past all of that, no
 * timeout of the driver will end it.
 */
const stuckCheckLimitMs = (connectTimeoutMs: number, heartbeatMs: number) =>
  2 * connectTimeoutMs + heartbeatMs;

/**
 * Calls `onStuck` once when a check of a server by the driver's monitor has run for longer than
 * `limitMs`. mongodb 7.9 can hang a check for good: when the server closed the monitor's idle
 * connection just before the check is written on it (the socket destroyed, its 'close' not yet
 * delivered), the write fails without an 'error' event, the driver waits for a 'drain' that never
 * comes and no timeout covers that wait. The monitor then never checks again, and once a failed
 * read has marked the server unknown, every read waits out server selection while the process
 * lives. The driver writes a check on an idle connection every heartbeat when it polls (a server
 * without streamed checks, such as the wire-protocol test server, or in a FaaS environment); with
 * a MongoDB that streams them it writes on the monitor's connection once after connecting, so the
 * race is narrower there. Only a new client has a new monitor. Returns a function that stops
 * watching.
 */
export function watchServerChecks(
  client: MongoClient,
  limitMs: number,
  onStuck: () => void,
): () => void {
  const running = new Map<string, number>();
  client.on('serverHeartbeatStarted', ({ connectionId }) => {
    if (!running.has(connectionId)) running.set(connectionId, Date.now());
  });
  client.on('serverHeartbeatSucceeded', ({ connectionId }) => running.delete(connectionId));
  client.on('serverHeartbeatFailed', ({ connectionId }) => running.delete(connectionId));
  // looked at a few times within the limit, so a stuck check is noticed soon after it passes it
  const timer = setInterval(
    () => {
      for (const since of running.values()) {
        if (Date.now() - since > limitMs) {
          clearInterval(timer);
          onStuck();
          return;
        }
      }
    },
    Math.min(1_000, Math.max(50, Math.floor(limitMs / 4))),
  );
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The store over the client of the last successful connect. Until one connects (a MongoClient
 * whose first connect failed stays closed for good), and after the driver's monitor got stuck,
 * every call tries a fresh connection (concurrent calls share the attempt) and fails like a down
 * server until one succeeds.
 */
function reconnectingLegacyStore(
  connect: (onStuck: () => void) => Promise<LegacyStore>,
  stuckCheckMs: number,
  logger: Logger | undefined,
): LegacyStore & { connected(): Promise<LegacyStore> } {
  let current: Promise<LegacyStore> | undefined;
  const open = (): Promise<LegacyStore> => {
    const attempt: Promise<LegacyStore> = connect(() => {
      if (current !== attempt) return;
      current = undefined;
      logger?.warn(
        { limitMs: stuckCheckMs },
        "legacy store: the driver's check of MongoDB is stuck; reconnecting with a new client",
      );
      void attempt.then((stuck) => stuck.close()).catch(() => undefined);
    }).catch((error: unknown) => {
      if (current === attempt) current = undefined;
      throw error;
    });
    return attempt;
  };
  const store = () => (current ??= open());
  return {
    source: `mongo:${MONGO_COLLECTION}`,
    connected: store,
    findByDomains: async (domains) => (await store()).findByDomains(domains),
    findByLegacyIds: async (ids) => (await store()).findByLegacyIds(ids),
    upsert: async (summary) => (await store()).upsert(summary),
    upsertMany: async (summaries) => (await store()).upsertMany(summaries),
    moveDomain: async (from, to) => (await store()).moveDomain(from, to),
    async health() {
      try {
        return await (await store()).health();
      } catch (error) {
        return { ok: false, backend: 'mongo', error: (error as Error).message };
      }
    },
    async close() {
      const pending = current;
      current = undefined;
      await (await pending?.catch(() => undefined))?.close();
    },
  };
}
