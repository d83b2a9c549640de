// In-memory collections of the test server, keyed by "<db>.<collection>". Documents are kept in
// insertion order by their _id (compared by canonical Extended JSON, so "a" and ObjectId("a…")
// never collide), and unique indexes are enforced as a real server would: a write that would
// duplicate a unique key fails with E11000 and changes nothing.
import { EJSON, type Document } from 'bson';

export interface IndexSpec {
  key: Record<string, 1 | -1>;
  name: string;
  unique?: boolean;
}

export class CommandError extends Error {
  constructor(
    readonly code: number,
    readonly codeName: string,
    message: string,
  ) {
    super(message);
  }
}

export const canonical = (value: unknown): string =>
  EJSON.stringify({ v: value }, { relaxed: false });

const ID_INDEX: IndexSpec = { key: { _id: 1 }, name: '_id_' };

/** The value of a document under an index, as one comparable string (missing fields count as null). */
const indexKey = (index: IndexSpec, doc: Document): string =>
  canonical(Object.keys(index.key).map((field) => doc[field] ?? null));

export class MemoryCollection {
  /** documents by canonical _id, in insertion order */
  readonly docs = new Map<string, Document>();
  readonly indexes: IndexSpec[] = [ID_INDEX];
  /** per unique index: index key -> canonical _id of the document holding it */
  private readonly uniqueKeys = new Map<string, Map<string, string>>();

  constructor(readonly namespace: string) {}

  byId(id: unknown): Document | undefined {
    return this.docs.get(canonical(id));
  }

  /** Adds an index; a unique one over documents that already collide fails, as on a server. */
  addIndex(spec: IndexSpec): void {
    if (spec.unique) {
      const keys = new Map<string, string>();
      for (const [id, doc] of this.docs) {
        const key = indexKey(spec, doc);
        if (keys.has(key)) throw this.duplicate(spec, doc);
        keys.set(key, id);
      }
      this.uniqueKeys.set(spec.name, keys);
    }
    this.indexes.push(spec);
  }

  /** Inserts or replaces the document with doc._id, after the unique-index checks. */
  put(doc: Document, { replacing }: { replacing: boolean }): void {
    const id = canonical(doc._id);
    const previous = this.docs.get(id);
    if (previous && !replacing) throw this.duplicate(ID_INDEX, doc);
    for (const index of this.indexes) {
      const holder = this.uniqueKeys.get(index.name)?.get(indexKey(index, doc));
      if (holder !== undefined && holder !== id) throw this.duplicate(index, doc);
    }
    if (previous) this.forgetKeys(previous);
    for (const index of this.indexes)
      this.uniqueKeys.get(index.name)?.set(indexKey(index, doc), id);
    this.docs.set(id, doc);
  }

  delete(doc: Document): void {
    this.forgetKeys(doc);
    this.docs.delete(canonical(doc._id));
  }

  private forgetKeys(doc: Document): void {
    for (const index of this.indexes) this.uniqueKeys.get(index.name)?.delete(indexKey(index, doc));
  }

  private duplicate(index: IndexSpec, doc: Document): CommandError {
    const dupKey = Object.keys(index.key).map(
      (field) => `${field}: ${EJSON.stringify(doc[field] ?? null)}`,
    );
    return new CommandError(
      11000,
      'DuplicateKey',
      `E11000 duplicate key error collection: ${this.namespace} index: ${index.name} dup key: { ${dupKey.join(', ')} }`,
    );
  }
}

export class Databases {
  private readonly collections = new Map<string, MemoryCollection>();

  get(db: string, name: string): MemoryCollection | undefined {
    return this.collections.get(`${db}.${name}`);
  }

  getOrCreate(db: string, name: string): MemoryCollection {
    const namespace = `${db}.${name}`;
    let collection = this.collections.get(namespace);
    if (!collection) {
      collection = new MemoryCollection(namespace);
      this.collections.set(namespace, collection);
    }
    return collection;
  }

  drop(db: string, name: string): void {
    this.collections.delete(`${db}.${name}`);
  }

  dropDatabase(db: string): void {
    for (const namespace of [...this.collections.keys()]) {
      if (namespace.startsWith(`${db}.`)) this.collections.delete(namespace);
    }
  }
}
