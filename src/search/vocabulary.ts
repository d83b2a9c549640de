// A search's words matched against a vocabulary table (every term of the searched texts with the
// number of documents holding it), in one statement: the term itself, the terms the last word
// begins (typing), the nearest terms by trigrams (typos, kept when within allowedEdits; found in
// the vocabulary's trigram index in memory, nearest-terms.ts), and the longer terms containing the
// word. The vocabulary is small (tens of thousands of terms for a
// million stores) next to the documents, so this costs a millisecond whatever the catalog's size,
// and its counts say how many documents each term will bring before any is read.
import { queryRows, SqlParams, type Queryable } from '../platform/database/sql.ts';
import { editDistance } from './edit-distance.ts';
import { termIndex } from './nearest-terms.ts';
import { allowedEdits } from './search-words.ts';

export type MatchKind = 'exact' | 'prefix' | 'typo' | 'infix';

export interface TermMatch {
  term: string;
  /** documents holding the term */
  documents: number;
  kind: MatchKind;
  /** how well the term answers the word, 0 to 1 */
  quality: number;
}

export interface WordMatches {
  word: string;
  /** best match first; empty when nothing in the vocabulary is close to the word */
  terms: TermMatch[];
  /** rarer words weigh more: ln(1 + documents / (1 + documents matching the word)) */
  weight: number;
  /**
   * A last word of one or two letters after words that matched: the word being typed. Besides its
   * few hundred most common completions (terms), it matches any term it begins (the quality of a
   * prefix) among the documents the other words find. documents: those holding such a term.
   */
  typing?: { prefix: string; documents: number };
}

export interface Vocabulary {
  /** the vocabulary table: term (COLLATE "C", primary key, trigram GiST) and a count column */
  table: string;
  /** its column counting the documents holding a term */
  countColumn: string;
  /** the searched table, whose planner row estimate is the number of documents */
  documentsTable: string;
}

/** how well each kind of match answers a word; a typo of two edits counts less than one */
const QUALITY = { exact: 1, prefix: 0.8, typo1: 0.7, infix: 0.6, typo2: 0.5 } as const;
/** at most this many terms a typed prefix stands for, the most common first */
const MAX_PREFIX_TERMS = 200;
/** nearest terms by trigram distance checked for a typo */
const NEAREST_TERMS = 20;
/** longer terms containing a word, the most common first */
const MAX_INFIX_TERMS = 50;
/** a word shorter than this is not looked for inside longer terms (two trigrams at least) */
const MIN_INFIX_LENGTH = 4;
/** a prefix shorter than this stands for too many terms to be a search */
const MIN_PREFIX_LENGTH = 2;
/** a last word up to this long after other words is the word being typed (WordMatches.typing) */
export const MAX_TYPING_LENGTH = 2;

/** LIKE pattern of the terms `word` begins */
const prefixPattern = (word: string) => `${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** `words` matched against the vocabulary; the last word is also taken as a prefix being typed. */
export async function matchWords(
  pool: Queryable,
  vocabulary: Vocabulary,
  words: readonly string[],
): Promise<{ words: WordMatches[]; documents: number }> {
  if (words.length === 0) return { words: [], documents: 0 };
  const params = new SqlParams();
  const { table, countColumn: count } = vocabulary;
  const index = await termIndex(pool, table, count);
  const branches = words.flatMap((word, i) => {
    const w = params.add(word);
    const last = i === words.length - 1;
    const length = [...word].length;
    const found = (kind: string, from: string) =>
      `(SELECT ${i} AS word, v.term, v.${count} AS documents, '${kind}' AS kind ${from})`;
    // the candidates' counts as they are now (a term may have lost its last document since the index
    // was read), each by primary key: a range of one term, as the exact branch, which the trigram
    // index cannot serve (it serves `= ANY` too, and the planner may take it)
    const nearBranch = (terms: string[]) =>
      terms.length
        ? found(
            'near',
            `FROM unnest(${params.add(terms)}::text[]) c (term)
               CROSS JOIN LATERAL (SELECT * FROM ${table} v WHERE v.term >= c.term AND v.term <= c.term AND v.${count} > 0) v`,
          )
        : null;
    const typing = last && i > 0 && length <= MAX_TYPING_LENGTH;
    return [
      typing
        ? found(
            'typing',
            `FROM (SELECT ${w}::text AS term, coalesce(sum(v.${count}), 0)::float8 AS ${count} FROM ${table} v
                    WHERE v.term LIKE ${params.add(prefixPattern(word))} AND v.term <> ${w} AND v.${count} > 0) v`,
          )
        : null,
      // written as a range of one term so that the primary key reads it: pg_trgm's index also serves
      // `=` at the same price, and reads many more buffers for it
      found('exact', `FROM ${table} v WHERE v.term >= ${w} AND v.term <= ${w} AND v.${count} > 0`),
      last && length >= MIN_PREFIX_LENGTH
        ? found(
            'prefix',
            `FROM ${table} v WHERE v.term LIKE ${params.add(`${word}%`)} AND v.term <> ${w} AND v.${count} > 0
             ORDER BY v.${count} DESC LIMIT ${MAX_PREFIX_TERMS}`,
          )
        : null,
      allowedEdits(word) > 0
        ? nearBranch(
            index
              .nearest(word, NEAREST_TERMS + 1)
              .filter((term) => term !== word)
              .slice(0, NEAREST_TERMS),
          )
        : null,
      length >= MIN_INFIX_LENGTH
        ? found(
            'infix',
            `FROM ${table} v WHERE v.term LIKE ${params.add(`%${word}%`)} AND v.term NOT LIKE ${params.add(`${word}%`)} AND v.${count} > 0
             ORDER BY v.${count} DESC LIMIT ${MAX_INFIX_TERMS}`,
          )
        : null,
    ].filter((branch): branch is string => branch !== null);
  });
  const rows = await queryRows<{
    word: number;
    term: string;
    documents: number;
    kind: string;
    total: number;
  }>(
    pool,
    `SELECT m.*, (SELECT greatest(reltuples, 0)::float8 FROM pg_class WHERE oid = '${vocabulary.documentsTable}'::regclass) AS total
       FROM (${branches.join(' UNION ALL ')}) m`,
    params.values,
  );
  const documents = Math.max(1, rows[0]?.total ?? 1);
  const typingRow = rows.find((row) => row.kind === 'typing');
  // the other words narrow the match: the last one is typed among their documents
  const typing =
    typingRow && rows.some((row) => row.word !== typingRow.word && row.kind !== 'typing')
      ? typingRow
      : undefined;
  return {
    documents,
    words: words.map((word, i) => {
      const best = new Map<string, TermMatch>();
      for (const row of rows) {
        if (row.word !== i || row.kind === 'typing') continue;
        const match = classify(word, row.term, row.kind);
        if (!match) continue;
        const previous = best.get(row.term);
        if (!previous || previous.quality < match.quality)
          best.set(row.term, { ...match, term: row.term, documents: row.documents });
      }
      const terms = [...best.values()].sort(
        (a, b) => b.quality - a.quality || b.documents - a.documents || (a.term < b.term ? -1 : 1),
      );
      const typed = typing?.word === i ? Number(typing.documents) : 0;
      // a typed word's documents count every term it begins, its most common ones included
      const matching = Math.min(
        documents,
        terms.reduce((sum, t) => sum + (typed && t.kind === 'prefix' ? 0 : t.documents), typed),
      );
      return {
        word,
        terms,
        weight: Math.log(1 + documents / (1 + matching)),
        ...(typing?.word === i ? { typing: { prefix: word, documents: typed } } : {}),
      };
    }),
  };
}

function classify(
  word: string,
  term: string,
  kind: string,
): Pick<TermMatch, 'kind' | 'quality'> | null {
  if (kind === 'exact') return { kind: 'exact', quality: QUALITY.exact };
  if (kind === 'prefix') return { kind: 'prefix', quality: QUALITY.prefix };
  if (kind === 'infix') return { kind: 'infix', quality: QUALITY.infix };
  const allowed = allowedEdits(word);
  const distance = editDistance(word, term, allowed);
  if (distance > allowed) return null;
  return { kind: 'typo', quality: distance <= 1 ? QUALITY.typo1 : QUALITY.typo2 };
}
