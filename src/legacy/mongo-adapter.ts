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
import type { Logger } from '../platform/logger.ts';
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
  return { _id: domain, ...rest, lastCrawledAt: lastCrawledAt === null ? null : new Date(lastCrawledAt) };
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
  logger?.info({ backend: 'mongo', db: dbName, collection: MONGO_COLLECTION }, 'legacy store ready');

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
        docs.map((doc) => ({ replaceOne: { filter: { _id: doc._id }, replacement: doc, upsert: true } })),
        { ordered: false },
      );
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
}

export async function connectMongoLegacyStore({
  url,
  dbName,
  logger,
}: ConnectMongoLegacyStoreOptions): Promise<LegacyStore> {
  const connect = async () => {
    // A down server should fail a read or a health check within seconds, not the driver's 30 s,
    // and one that comes back should be found within seconds too: the monitor rechecks a server it
    // lost every heartbeat, 10 s by default, and under load the first reads after its return
    // could keep timing out for longer than that. The monitor's check of a connection it already
    // holds waits connectTimeoutMS for the answer (30 s by default): a connection that went silent
    // (a partition, or one cut just as the check was written on it) held the monitor that long, and
    // the server stayed unknown, every read failing, well after it was back. A timed-out check
    // also interrupts the reads waiting on that server's connections.
    const client = new MongoClient(url, {
      serverSelectionTimeoutMS: 5_000,
      connectTimeoutMS: 5_000,
      heartbeatFrequencyMS: 2_000,
      appName: 'store-intelligence-gateway',
    });
    try {
      await client.connect();
      return await createMongoLegacyStore({ client, dbName, logger });
    } catch (error) {
      await client.close();
      throw error;
    }
  };
  try {
    return await connect();
  } catch (error) {
    // The legacy store only enriches stores: start without it and connect once it answers.
    logger?.warn({ err: { message: (error as Error).message } }, 'legacy store unreachable at start: serving without it until it answers');
    return connectingLegacyStore(connect);
  }
}

/**
 * A MongoClient whose first connect failed stays closed for good, so until one connects, every
 * call tries a fresh connection (concurrent calls share the attempt) and fails like a down server.
 */
function connectingLegacyStore(connect: () => Promise<LegacyStore>): LegacyStore {
  let connected: Promise<LegacyStore> | undefined;
  const store = () =>
    (connected ??= connect().catch((error: unknown) => {
      connected = undefined;
      throw error;
    }));
  return {
    source: `mongo:${MONGO_COLLECTION}`,
    findByDomains: async (domains) => (await store()).findByDomains(domains),
    findByLegacyIds: async (ids) => (await store()).findByLegacyIds(ids),
    upsert: async (summary) => (await store()).upsert(summary),
    upsertMany: async (summaries) => (await store()).upsertMany(summaries),
    async health() {
      try {
        return await (await store()).health();
      } catch (error) {
        return { ok: false, backend: 'mongo', error: (error as Error).message };
      }
    },
    async close() {
      const pending = connected;
      connected = undefined;
      await (await pending?.catch(() => undefined))?.close();
    },
  };
}
