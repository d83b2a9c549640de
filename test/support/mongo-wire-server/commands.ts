// The commands the official driver sends for our adapters, answered like a MongoDB 7.0 standalone.
// Filters, projections, sorts and update operators are evaluated by mingo. Every find answers in
// one batch with cursor id 0, so getMore never has anything left to return.
import { Long, ObjectId, type Document } from 'bson';
import { Query, update as applyUpdateOperators } from 'mingo';
import {
  canonical,
  CommandError,
  type Databases,
  type IndexSpec,
  type MemoryCollection,
} from './collections.ts';

/** MongoDB 7.0. The mongodb v7 driver accepts wire versions 9 (4.4) to 29. */
const MAX_WIRE_VERSION = 21;

export interface CommandContext {
  databases: Databases;
  connectionId: number;
}

type Handler = (command: Document, db: string, context: CommandContext) => Document;

const hello: Handler = (_command, _db, { connectionId }) => ({
  helloOk: true,
  isWritablePrimary: true,
  ismaster: true,
  maxBsonObjectSize: 16 * 1024 * 1024,
  maxMessageSizeBytes: 48_000_000,
  maxWriteBatchSize: 100_000,
  localTime: new Date(),
  logicalSessionTimeoutMinutes: 30,
  connectionId,
  minWireVersion: 0,
  maxWireVersion: MAX_WIRE_VERSION,
  readOnly: false,
});

const collectionName = (command: Document, name: string): string => {
  const value = command[name];
  if (typeof value !== 'string' || value === '') {
    throw new CommandError(73, 'InvalidNamespace', `collection name must be a non-empty string`);
  }
  return value;
};

const isOperatorDocument = (doc: Document): boolean =>
  Object.keys(doc).some((k) => k.startsWith('$'));
/** A filter value that is a condition ({ $in: … }) rather than a value to compare for equality. */
const isOperatorValue = (value: unknown): value is Document =>
  value !== null &&
  typeof value === 'object' &&
  !Array.isArray(value) &&
  isOperatorDocument(value as Document);

/** Result of a batch of writes: stops at the first error when ordered (the default). */
function writeBatch<T>(
  items: T[],
  ordered: boolean,
  write: (item: T, index: number) => void,
): Document {
  const writeErrors: Document[] = [];
  for (const [index, item] of items.entries()) {
    try {
      write(item, index);
    } catch (error) {
      if (!(error instanceof CommandError)) throw error;
      writeErrors.push({
        index,
        code: error.code,
        codeName: error.codeName,
        errmsg: error.message,
      });
      if (ordered) break;
    }
  }
  return writeErrors.length > 0 ? { writeErrors } : {};
}

const insert: Handler = (command, db, { databases }) => {
  const collection = databases.getOrCreate(db, collectionName(command, 'insert'));
  const documents = (command.documents ?? []) as Document[];
  let n = 0;
  const errors = writeBatch(documents, command.ordered !== false, (doc) => {
    collection.put({ _id: doc._id ?? new ObjectId(), ...doc }, { replacing: false });
    n += 1;
  });
  return { n, ...errors };
};

/** The fields an upsert copies from its filter: top-level equality conditions. */
function equalityFields(filter: Document): Document {
  const fields: Document = {};
  for (const [key, value] of Object.entries(filter)) {
    if (key.startsWith('$')) continue;
    if (!isOperatorValue(value)) fields[key] = value;
    else if ('$eq' in value) fields[key] = value.$eq;
  }
  return fields;
}

function updatedDocument(current: Document, change: Document): Document {
  if (!isOperatorDocument(change)) return { _id: current._id, ...change };
  const next = structuredClone(current);
  applyUpdateOperators(next, change);
  return next;
}

interface UpdateStatement {
  q?: Document;
  u: Document | Document[];
  upsert?: boolean;
  multi?: boolean;
}

const update: Handler = (command, db, { databases }) => {
  const collection = databases.getOrCreate(db, collectionName(command, 'update'));
  let n = 0;
  let nModified = 0;
  const upserted: Document[] = [];
  const errors = writeBatch(
    command.updates as UpdateStatement[],
    command.ordered !== false,
    (statement, index) => {
      const { q = {}, u, upsert = false, multi = false } = statement;
      if (Array.isArray(u)) {
        throw new CommandError(
          2,
          'BadValue',
          'pipeline updates are not supported by the test server',
        );
      }
      const matches = matching(collection, q);
      const targets = multi ? matches : matches.slice(0, 1);
      for (const current of targets) {
        const next = updatedDocument(current, u);
        if (canonical(next._id) !== canonical(current._id)) {
          const message =
            "Performing an update on the path '_id' would modify the immutable field '_id'";
          throw new CommandError(66, 'ImmutableField', message);
        }
        collection.put(next, { replacing: true });
        n += 1;
        if (canonical(next) !== canonical(current)) nModified += 1;
      }
      if (targets.length === 0 && upsert) {
        // the new document takes its _id (and, for operator updates, its other fields) from the filter
        const fromFilter = equalityFields(q);
        const seed = isOperatorDocument(u) ? fromFilter : {};
        const doc = updatedDocument({ _id: u._id ?? fromFilter._id ?? new ObjectId(), ...seed }, u);
        collection.put(doc, { replacing: false });
        upserted.push({ index, _id: doc._id });
        n += 1;
      }
    },
  );
  return { n, nModified, ...(upserted.length > 0 ? { upserted } : {}), ...errors };
};

interface DeleteStatement {
  q: Document;
  limit: 0 | 1;
}

const remove: Handler = (command, db, { databases }) => {
  const collection = databases.get(db, collectionName(command, 'delete'));
  let n = 0;
  const errors = writeBatch(
    command.deletes as DeleteStatement[],
    command.ordered !== false,
    ({ q, limit }) => {
      if (!collection) return;
      const matches = matching(collection, q);
      for (const doc of limit === 1 ? matches.slice(0, 1) : matches) collection.delete(doc);
      n += limit === 1 ? Math.min(1, matches.length) : matches.length;
    },
  );
  return { n, ...errors };
};

function matching(collection: MemoryCollection, filter: Document): Document[] {
  // the filter of every replaceOne/updateOne by key: answered from the _id map, not a scan
  const keys = Object.keys(filter);
  if (keys.length === 1 && keys[0] === '_id' && !isOperatorValue(filter._id)) {
    const doc = collection.byId(filter._id);
    return doc ? [doc] : [];
  }
  const query = new Query(filter);
  return [...collection.docs.values()].filter((doc) => query.test(doc));
}

const find: Handler = (command, db, { databases }) => {
  const name = collectionName(command, 'find');
  const docs = [...(databases.get(db, name)?.docs.values() ?? [])];
  let cursor = new Query(command.filter ?? {}).find<Document>(docs, command.projection);
  if (command.sort) cursor = cursor.sort(command.sort);
  if (command.skip) cursor = cursor.skip(command.skip);
  if (command.limit) cursor = cursor.limit(command.limit);
  return { cursor: { id: Long.ZERO, ns: `${db}.${name}`, firstBatch: cursor.all() } };
};

const createIndexes: Handler = (command, db, { databases }) => {
  const name = collectionName(command, 'createIndexes');
  const createdCollectionAutomatically = !databases.get(db, name);
  const collection = databases.getOrCreate(db, name);
  const numIndexesBefore = collection.indexes.length;
  for (const spec of command.indexes as IndexSpec[]) {
    const existing = collection.indexes.find((i) => i.name === spec.name);
    if (!existing) {
      collection.addIndex({
        key: spec.key,
        name: spec.name,
        ...(spec.unique ? { unique: true } : {}),
      });
    } else if (
      canonical(existing.key) !== canonical(spec.key) ||
      Boolean(existing.unique) !== Boolean(spec.unique)
    ) {
      const message = `An existing index has the same name as the requested index: ${spec.name}`;
      throw new CommandError(86, 'IndexKeySpecsConflict', message);
    }
  }
  return {
    numIndexesBefore,
    numIndexesAfter: collection.indexes.length,
    createdCollectionAutomatically,
    ...(numIndexesBefore === collection.indexes.length
      ? { note: 'all indexes already exist' }
      : {}),
  };
};

const listIndexes: Handler = (command, db, { databases }) => {
  const name = collectionName(command, 'listIndexes');
  const collection = databases.get(db, name);
  if (!collection)
    throw new CommandError(26, 'NamespaceNotFound', `ns does not exist: ${db}.${name}`);
  const firstBatch = collection.indexes.map((index) => ({ v: 2, ...index }));
  return { cursor: { id: Long.ZERO, ns: `${db}.${name}`, firstBatch } };
};

export const handlers: Record<string, Handler> = {
  hello,
  isMaster: hello,
  ismaster: hello,
  ping: () => ({}),
  buildInfo: () => ({
    version: '7.0.0',
    versionArray: [7, 0, 0, 0],
    maxBsonObjectSize: 16 * 1024 * 1024,
  }),
  endSessions: () => ({}),
  find,
  getMore: (command, db) => ({
    cursor: { id: Long.ZERO, ns: `${db}.${command.collection}`, nextBatch: [] },
  }),
  killCursors: (command) => ({
    cursorsKilled: command.cursors ?? [],
    cursorsNotFound: [],
    cursorsAlive: [],
    cursorsUnknown: [],
  }),
  insert,
  update,
  delete: remove,
  createIndexes,
  listIndexes,
  drop: (command, db, { databases }) => {
    // since 7.0 dropping a missing collection succeeds
    databases.drop(db, collectionName(command, 'drop'));
    return {};
  },
  dropDatabase: (_command, db, { databases }) => {
    databases.dropDatabase(db);
    return {};
  },
};

/** Runs one command; failures become the error document a server sends (ok: 0). */
export function runCommand(command: Document, context: CommandContext): Document {
  const name = Object.keys(command)[0] ?? '';
  const handler = handlers[name];
  if (!handler) {
    return { ok: 0, errmsg: `no such command: '${name}'`, code: 59, codeName: 'CommandNotFound' };
  }
  try {
    return { ...handler(command, String(command.$db ?? 'admin'), context), ok: 1 };
  } catch (error) {
    if (error instanceof CommandError) {
      return { ok: 0, errmsg: error.message, code: error.code, codeName: error.codeName };
    }
    return { ok: 0, errmsg: (error as Error).message, code: 1, codeName: 'InternalError' };
  }
}
