// Typo candidates of a word: the vocabulary's terms nearest to it by trigram similarity, in the
// order pg_trgm's `<->` gives them, from an index of the vocabulary's terms held in memory.
//
// Why in memory: the trigram GiST index is lossy, so PostgreSQL's nearest-neighbour search visits
// most of it and recomputes each term's distance; posting lists in memory rank the same terms far
// cheaper. Only the candidates come from memory: their counts, and whether they are still held,
// are read with the rest of the lookup, by primary key.
//
// The terms are read once per database and vocabulary, then again on the first use a minute or
// more later (the read of the moment answers meanwhile): a word new to the catalog is found
// exactly, as a prefix and inside longer terms at once, and with a typing mistake within a minute.
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { Queryable } from '../platform/database/sql.ts';

/** how old the terms may be before the next use reads them again */
export const TERMS_REFRESH_MS = 60_000;

/**
 * Terms indexed in one turn of the event loop (a few milliseconds): the index is built again every
 * minute, and a real catalog's million terms held in one turn would stop every request for seconds.
 */
const TERMS_PER_TURN = 2_000;

/**
 * A word's trigrams as pg_trgm makes them for one word of letters and digits: the word padded with
 * two spaces in front and one behind, every run of three characters, each once.
 */
export function trigramsOf(word: string): string[] {
  const chars = [' ', ' ', ...word, ' '];
  const trigrams = new Set<string>();
  for (let i = 0; i + 3 <= chars.length; i++)
    trigrams.add(chars[i]! + chars[i + 1]! + chars[i + 2]!);
  return [...trigrams];
}

/** pg_trgm's similarity: shared trigrams over all trigrams of either word */
const similarity = (shared: number, trigramsA: number, trigramsB: number) =>
  shared / (trigramsA + trigramsB - shared);

/** pg_trgm's similarity(a, b) of two words. */
export function trigramSimilarity(a: string, b: string): number {
  const ta = new Set(trigramsOf(a));
  const tb = trigramsOf(b);
  return similarity(tb.filter((t) => ta.has(t)).length, ta.size, tb.length);
}

/** The terms of a vocabulary with, for each trigram, the terms holding it. */
export class TrigramIndex {
  private readonly postings = new Map<string, number[]>();
  private readonly trigramCounts: Uint16Array;
  /** per term, the shared trigrams of the word being looked up (kept zero between lookups) */
  private readonly shared: Uint16Array;

  /** The index of `terms`, built TERMS_PER_TURN terms a turn so the process answers other requests meanwhile. */
  static async of(terms: readonly string[]): Promise<TrigramIndex> {
    const index = new TrigramIndex(terms);
    for (let from = 0; from < terms.length; from += TERMS_PER_TURN) {
      if (from > 0) await nextTurn();
      index.add(from, Math.min(terms.length, from + TERMS_PER_TURN));
    }
    return index;
  }

  private constructor(readonly terms: readonly string[]) {
    this.trigramCounts = new Uint16Array(terms.length);
    this.shared = new Uint16Array(terms.length);
  }

  private add(from: number, to: number): void {
    for (let id = from; id < to; id++) {
      const trigrams = trigramsOf(this.terms[id]!);
      this.trigramCounts[id] = trigrams.length;
      for (const trigram of trigrams) {
        const holders = this.postings.get(trigram);
        if (holders) holders.push(id);
        else this.postings.set(trigram, [id]);
      }
    }
  }

  /** Up to `limit` terms by trigram similarity to `word`, most similar first (ties by term); terms sharing no trigram are not candidates. */
  nearest(word: string, limit: number): string[] {
    const trigrams = trigramsOf(word);
    const touched: number[] = [];
    for (const trigram of trigrams) {
      for (const id of this.postings.get(trigram) ?? []) {
        if (this.shared[id] === 0) touched.push(id);
        this.shared[id]! += 1;
      }
    }
    const scored = touched.map((id) => {
      const shared = this.shared[id]!;
      this.shared[id] = 0;
      return {
        term: this.terms[id]!,
        similarity: similarity(shared, trigrams.length, this.trigramCounts[id]!),
      };
    });
    scored.sort(
      (a, b) => b.similarity - a.similarity || (a.term < b.term ? -1 : a.term > b.term ? 1 : 0),
    );
    return scored.slice(0, limit).map((s) => s.term);
  }
}

interface Loaded {
  index?: TrigramIndex;
  loadedAt: number;
  loading?: Promise<TrigramIndex>;
}

/** what each database's vocabularies hold, by pool (a test's, a replica router's) and table */
const loadedByPool = new WeakMap<Queryable, Map<string, Loaded>>();

async function readTerms(
  pool: Queryable,
  table: string,
  countColumn: string,
): Promise<TrigramIndex> {
  const { rows } = await pool.query<{ term: string }>(
    `SELECT term FROM ${table} WHERE ${countColumn} > 0`,
  );
  return TrigramIndex.of(rows.map((row) => row.term));
}

function tablesOf(pool: Queryable): Map<string, Loaded> {
  let tables = loadedByPool.get(pool);
  if (!tables) loadedByPool.set(pool, (tables = new Map()));
  return tables;
}

/** `client` (a connection of `pool`, held for a while) looks its words up in the pool's indexes rather than reading terms of its own. */
export function shareTermIndexes(client: Queryable, pool: Queryable): void {
  loadedByPool.set(client, tablesOf(pool));
}

function entryOf(pool: Queryable, table: string): Loaded {
  const tables = tablesOf(pool);
  let entry = tables.get(table);
  if (!entry) tables.set(table, (entry = { loadedAt: 0 }));
  return entry;
}

function load(
  pool: Queryable,
  table: string,
  countColumn: string,
  entry: Loaded,
): Promise<TrigramIndex> {
  entry.loading ??= readTerms(pool, table, countColumn)
    .then((index) => {
      entry.index = index;
      entry.loadedAt = Date.now();
      return index;
    })
    .finally(() => {
      entry.loading = undefined;
    });
  return entry.loading;
}

/**
 * The vocabulary's trigram index: read on the first call (awaited), then read again in the
 * background on a call TERMS_REFRESH_MS after the last read, the current one answering meanwhile.
 * A failed background read keeps the current index and is tried again on a later call.
 */
export async function termIndex(
  pool: Queryable,
  table: string,
  countColumn: string,
): Promise<TrigramIndex> {
  const entry = entryOf(pool, table);
  if (!entry.index) return load(pool, table, countColumn, entry);
  if (Date.now() - entry.loadedAt >= TERMS_REFRESH_MS && !entry.loading) {
    load(pool, table, countColumn, entry).catch(() => undefined);
  }
  return entry.index;
}
