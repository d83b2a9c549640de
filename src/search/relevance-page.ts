// One page of documents (stores, products) in relevance order for matched words (vocabulary.ts),
// read and ranked in one statement. Each table holds its documents' terms in a stored column
// search_terms with a GIN index, and a covering index of its tie-break order with search_terms.
//
// Relevance adds up, per word, the best matching term's quality times the word's weight (rarer
// words weigh more), plus the bonuses of exact matches the table defines (a store's domain or
// name). Ties go round-robin over the terms of a short list of completions or corrections where
// the table asks for it (stores: a prefix typed far enough, "birchg" → birchgarden, birchglow, ...;
// each term's first store first, so every brand the prefix can still become shows on the first
// page), then to the table's order (stores: visits; products: id).
import type { SqlParams } from '../platform/database/sql.ts';
import type { TermMatch, WordMatches } from './vocabulary.ts';

export interface SearchTable {
  /** the table and its alias in every condition given (`stores` `s`) */
  table: string;
  alias: string;
  /** the tie-break order, ending on a unique column (`s.monthly_visits DESC, s.id`) */
  order: string;
  /** the same order kept off its index, so that every holder is read and sorted (`s.monthly_visits + 0 DESC`) */
  orderWhole: string;
  /** the covering index's rows in that order, alias included: `(SELECT id, search_terms FROM stores ORDER BY ... OFFSET 0) s` */
  walk: string;
  /** a condition every listed document meets (vanished stores are not), or null */
  listed: string | null;
  /**
   * rank equally good documents round-robin over a short list of completions or corrections
   * (stores: every brand a prefix can become; product titles share their words too widely for it
   * to tell anything, and each term of its own would be a walk of its own)
   */
  roundRobin: boolean;
  /**
   * with no other filter, give the planner each term list as an InitPlan, not a value: it then
   * skips the column's term statistics, which it detoasts again for each source. Worth it where
   * they are large (stores: 10,000 common terms, 46 kB, more time to plan than to run); the
   * products' 1,100 are cheap to read, and their estimates plan the page a little better.
   */
  termListsUnestimated: boolean;
}

export interface TextMatch {
  words: WordMatches[];
  /** documents in the table (the planner's estimate) */
  documents: number;
}

/** A match of the whole text the table knows besides terms (a store's domain): a candidate source and a bonus. */
export interface ExactMatch {
  condition: string;
  /** above any sum of word scores */
  bonus: number;
  /** one document (read as is) or many (the depth first in the table's order) */
  many: boolean;
}

/** a group of equally good terms up to this size is ranked round-robin over its terms */
export const MAX_DISTINCT_TERMS = 20;

/**
 * A search whose matched terms are held by at most this many documents (the vocabulary's counts) is
 * narrow: every match is read through the GIN index (a heap page each), ranked, and counted for
 * page.total. A broader one reads candidates only and takes its total from the counts: past about
 * 500 documents, a word's first holders are found by walking the covering index in the table's
 * order or by reading its holders, whichever is expected to cost less (MAX_WALK,
 * WALK_ENTRIES_PER_HOLDER).
 */
export const NARROW_SEARCH_DOCUMENTS = 500;
/** index entries a walk may be expected to read (depth × documents ÷ holders); past it the holders are read instead */
const MAX_WALK = 200_000;
/**
 * A walk also gives way to reading the holders when it is expected to read more than this many
 * index entries per holder: an entry of the covering index is an order of magnitude cheaper to read
 * than a holder through the GIN index, not more.
 */
const WALK_ENTRIES_PER_HOLDER = 10;
/**
 * The documents holding every word are a candidate source of their own while the rarest word is
 * held by at most this many (its holders bound the rows read): however common each word, the
 * document holding them all is then never left below the depth of each word's own source.
 */
const MAX_ALL_WORDS_DOCUMENTS = 2_000;
/** How many times the page's depth a word's best terms must be held by before its weaker terms are not read (outrankedGroups). */
const DOMINANT_HOLDERS = 10;
/** the quality of a term the typed word begins (vocabulary.ts QUALITY.prefix) */
const TYPING_QUALITY = 0.8;

/** LIKE pattern over `' ' || array_to_string(search_terms, ' ')`: a term begins with `prefix` */
const typedPattern = (prefix: string) => `% ${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Every term any word matched. */
export const matchedTerms = (match: TextMatch): string[] => [
  ...new Set(match.words.flatMap((w) => w.terms.map((t) => t.term))),
];

/** Documents holding the matched terms, by the vocabulary's counts (an upper bound: a document may hold several). */
export const matchedTermDocuments = (match: TextMatch): number =>
  match.words.reduce((sum, w) => sum + w.terms.reduce((s, t) => s + t.documents, 0), 0);

export const isNarrow = (match: TextMatch) =>
  matchedTermDocuments(match) <= NARROW_SEARCH_DOCUMENTS;

/**
 * `alias.search_terms` holds one of `terms`, given as a value the planner estimates from the term
 * statistics, or unestimated as an InitPlan (SearchTable.termListsUnestimated).
 */
const holdsOneOf = (alias: string, terms: string[], params: SqlParams, unestimated = false) =>
  `${alias}.search_terms && ${unestimated ? `(SELECT ${params.add(terms)}::text[])` : `${params.add(terms)}::text[]`}`;

/** `alias.search_terms` holds one of the matched terms. */
export const holdsMatchedTerms = (
  alias: string,
  match: TextMatch,
  params: SqlParams,
  unestimated = false,
): string | null => {
  const terms = matchedTerms(match);
  return terms.length ? holdsOneOf(alias, terms, params, unestimated) : null;
};

/** A group of equally good terms of one word: one candidate source. */
interface TermGroup {
  terms: string[];
  documents: number;
  /** the word's place in the text, and how well its terms match it */
  word: number;
  quality: number;
  /** ranked round-robin with the other distinct terms of its word */
  distinct: boolean;
  /**
   * a cheap test a document must pass to hold one of the terms, for walks: a prefix or infix group
   * of many terms costs a comparison per term and document in `&&`, a LIKE on the joined terms one
   */
  like: string | null;
}

/** A word's terms by how well they match; with roundRobin a group of 2 to MAX_DISTINCT_TERMS becomes one source per term. */
function termGroups(words: readonly WordMatches[], roundRobin: boolean): TermGroup[] {
  return words.flatMap((w, word) => {
    const byQuality = new Map<number, TermMatch[]>();
    for (const t of w.terms) byQuality.set(t.quality, [...(byQuality.get(t.quality) ?? []), t]);
    return [...byQuality.values()].flatMap((terms): TermGroup[] => {
      if (roundRobin && terms.length >= 2 && terms.length <= MAX_DISTINCT_TERMS) {
        return terms.map((t) => ({
          terms: [t.term],
          documents: t.documents,
          word,
          quality: t.quality,
          distinct: true,
          like: null,
        }));
      }
      const kind = terms[0]!.kind;
      const many = terms.length > MAX_DISTINCT_TERMS;
      const like =
        many && kind === 'prefix'
          ? `% ${w.word}%`
          : many && kind === 'infix'
            ? `%${w.word}%`
            : null;
      return [
        {
          terms: terms.map((t) => t.term),
          documents: terms.reduce((sum, t) => sum + t.documents, 0),
          word,
          quality: terms[0]!.quality,
          distinct: false,
          like,
        },
      ];
    });
  });
}

/**
 * The groups no document can reach the page from: a word's weaker terms when its best terms are
 * held by DOMINANT_HOLDERS × `depth` documents or more, so that the best group's own source fills
 * the page (the vocabulary's counts may include documents no longer listed, hence the margin).
 * Words being typed are left out: their prefix scores documents of any of their groups.
 */
function outrankedGroups(groups: readonly TermGroup[], depth: number): Set<TermGroup> {
  const best = new Map<number, { quality: number; documents: number }>();
  for (const g of groups) {
    const b = best.get(g.word);
    if (!b || g.quality > b.quality)
      best.set(g.word, { quality: g.quality, documents: g.documents });
    else if (g.quality === b.quality) b.documents += g.documents;
  }
  return new Set(
    groups.filter((g) => {
      const b = best.get(g.word)!;
      return g.quality < b.quality && b.documents >= DOMINANT_HOLDERS * depth;
    }),
  );
}

export interface RelevancePageOptions {
  params: SqlParams;
  /** the other filters, over the table's alias */
  filters: string[];
  exact: ExactMatch[];
  /** the select list and the FROM of the page's rows (`stores s`, `products p JOIN stores s ON ...`) */
  columns: string;
  from: string;
  depth: number;
  limit: number;
  offset: number;
}

/**
 * The relevance page, and for a narrow search its total (column "matchTotal" on every row).
 * Each candidate carries its row's address (ctid, stable within the statement's snapshot), so
 * ranking and returning it read the heap page its source read, not a primary-key leaf page again.
 * Candidates: every match of a narrow search; of a broad one the documents that can rank in the
 * first `depth`, each source limited to its `depth` first in the table's order: each exact match,
 * each group of equally good terms of each word (a common word's group is a walk of the covering
 * index), and the documents holding every word when one word is rare. Documents of one group score
 * the same unless they match more words, which the last source covers, so nothing below a group's
 * `depth` first can reach the page; a weaker group no document of which can (outrankedGroups) is
 * not read at all.
 */
export function relevancePage(
  table: SearchTable,
  match: TextMatch,
  options: RelevancePageOptions,
): { text: string; counted: boolean } {
  const { params, filters, exact, depth } = options;
  const a = table.alias;
  let k: string | null = null;
  const depthParam = () => (k ??= params.add(depth));
  const groups = termGroups(match.words, table.roundRobin);
  const distinct = new Set(groups.filter((g) => g.distinct).flatMap((g) => g.terms));
  const narrow = isNarrow(match);
  const conditions = (condition: string) =>
    [condition, ...(table.listed ? [table.listed] : []), ...filters].join(' AND ');
  /** the documents meeting `condition`: all of them, or the `depth` first read whole (bitmap) or walked in order */
  const source = (condition: string, read: 'all' | 'whole' | 'walk') => {
    const select = `SELECT ${a}.id, ${a}.ctid AS row_at FROM ${table.table} ${a} WHERE ${conditions(condition)}`;
    if (read === 'all') return `(${select})`;
    return `(${select} ORDER BY ${read === 'whole' ? table.orderWhole : table.order} LIMIT ${depthParam()})`;
  };
  /** a walk of the covering index alone (no other filter needs the row); its `depth` first found by id */
  const indexWalk = (condition: string) =>
    `(SELECT w.id, r.ctid AS row_at FROM (SELECT ${a}.id FROM ${table.walk} WHERE ${[condition, ...(table.listed ? [table.listed] : [])].join(' AND ')} LIMIT ${depthParam()}) w
        JOIN ${table.table} r ON r.id = w.id)`;
  // the words that find documents; a word being typed (vocabulary.ts) only scores the others' documents
  const matched = match.words.filter((w) => w.terms.length > 0 && !w.typing);
  const typed = match.words.flatMap((w, word) =>
    w.typing ? [{ ...w.typing, word, weight: w.weight }] : [],
  );
  // with no other filter each source's form fixes its plan (a GIN bitmap or a walk), so no estimate is needed
  const unestimated = table.termListsUnestimated && filters.length === 0;
  const holds = (terms: string[]) => holdsOneOf(a, terms, params, unestimated);
  const sources: string[] = [];
  if (narrow) {
    const holdsAny = holdsMatchedTerms(a, match, params, unestimated);
    sources.push(
      source(
        `(${[...exact.map((e) => e.condition), ...(holdsAny ? [holdsAny] : [])].join(' OR ') || 'false'})`,
        'all',
      ),
    );
  } else {
    const rarest = Math.min(
      ...matched.map((w) => w.terms.reduce((sum, t) => sum + t.documents, 0)),
    );
    const scoring = matched.length + typed.length;
    const allWords = scoring >= 2 && rarest <= MAX_ALL_WORDS_DOCUMENTS;
    // a document of a weaker group alone scores less on its word than each of the best group's, and
    // one that also holds the other word is among the holders of every word: none reaches the page
    const outranked =
      filters.length === 0 && (scoring === 1 || (scoring === 2 && allWords))
        ? outrankedGroups(
            groups.filter((g) => !match.words[g.word]!.typing),
            depth,
          )
        : new Set<TermGroup>();
    for (const e of exact) sources.push(source(e.condition, e.many ? 'walk' : 'all'));
    for (const g of groups) {
      if (outranked.has(g)) continue;
      const holdsGroup = holds(g.terms);
      const walkLength = (depth * match.documents) / Math.max(1, g.documents);
      if (
        g.documents <= NARROW_SEARCH_DOCUMENTS ||
        walkLength > Math.min(MAX_WALK, WALK_ENTRIES_PER_HOLDER * g.documents)
      ) {
        sources.push(source(holdsGroup, 'whole'));
        continue;
      }
      // CASE keeps the LIKE first: by its own count the planner would test the long && first
      const check = g.like
        ? `CASE WHEN ' ' || array_to_string(${a}.search_terms, ' ') LIKE ${params.add(g.like)} THEN ${holdsGroup} ELSE false END`
        : holdsGroup;
      sources.push(filters.length ? source(check, 'walk') : indexWalk(check));
    }
    if (allWords) {
      sources.push(
        source(
          [
            ...matched.map((w) => holds(w.terms.map((t) => t.term))),
            ...typed.map(
              (t) =>
                `' ' || array_to_string(${a}.search_terms, ' ') LIKE ${params.add(typedPattern(t.prefix))}`,
            ),
          ].join(' AND '),
          'whole',
        ),
      );
    }
  }
  // word: the word's place in the text, shared with the typed words' scores
  const scored = match.words.flatMap((w, word) =>
    w.terms.map((t) => ({
      term: t.term,
      word,
      score: w.weight * t.quality,
      distinct: distinct.has(t.term),
    })),
  );
  const bonus = exact.map((e) => `CASE WHEN ${e.condition} THEN ${e.bonus} ELSE 0 END`);
  return {
    counted: narrow,
    text: `WITH m (term, word, score, is_distinct) AS (
        SELECT * FROM unnest(${params.add(scored.map((m) => m.term))}::text[], ${params.add(scored.map((m) => m.word))}::int[],
                             ${params.add(scored.map((m) => m.score))}::float8[], ${params.add(scored.map((m) => m.distinct))}::bool[])
      ), candidates AS (${sources.join(' UNION ')}),
      matched AS (
        SELECT ${a}.*, m.term, m.word, m.score, m.is_distinct
          FROM candidates c JOIN ${table.table} ${a} ON ${a}.ctid = c.row_at
               CROSS JOIN LATERAL unnest(${a}.search_terms) AS t (term) JOIN m ON m.term = t.term${typed
                 .map(
                   (t) => `
        UNION ALL
        SELECT ${a}.*, t.term, ${params.add(t.word)}::int, ${params.add(t.weight * TYPING_QUALITY)}::float8, false
          FROM candidates c JOIN ${table.table} ${a} ON ${a}.ctid = c.row_at
               CROSS JOIN LATERAL unnest(${a}.search_terms) AS t (term)
         WHERE t.term LIKE ${params.add(`${t.prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)} AND t.term <> ${params.add(t.prefix)}`,
                 )
                 .join('')}
      ),
      word_scores AS (SELECT id, word, max(score) AS score FROM matched GROUP BY id, word),
      term_ranks AS (
        SELECT id, min(rank) AS rank FROM (
          SELECT ${a}.id, row_number() OVER (PARTITION BY ${a}.term ORDER BY ${table.order}) AS rank FROM matched ${a} WHERE ${a}.is_distinct
        ) ranked GROUP BY id
      )
      SELECT ${options.columns}${narrow ? `, (SELECT count(*) FROM candidates)::int AS "matchTotal"` : ''}
        FROM candidates c JOIN ${/\bJOIN\b/i.test(options.from) ? `(${options.from})` : options.from} ON ${a}.ctid = c.row_at
        LEFT JOIN (SELECT id, sum(score) AS score FROM word_scores GROUP BY id) w ON w.id = c.id
        LEFT JOIN term_ranks r ON r.id = c.id
       ORDER BY ${[...bonus, 'coalesce(w.score, 0)'].join(' + ')} DESC, coalesce(r.rank, 1), ${table.order}
       LIMIT ${params.add(options.limit)} OFFSET ${params.add(options.offset)}`,
  };
}
