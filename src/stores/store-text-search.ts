// q of the store search: the text as the catalog spells it and its words matched against the store
// vocabulary (src/search/vocabulary.ts), ranked by the relevance engine (src/search/relevance-page.ts).
//
// A store matches q when its domain is q, its name is q, its domain starts with q (a domain typed
// without its TLD), or it holds a term matching one of q's words (the word itself, a term the last
// word begins, a term within allowedEdits typing mistakes, a longer term containing the word). An
// exact domain, an exact name and a domain prefix rank above any word match; ties go to visits.
import type { Queryable, SqlParams } from '../platform/database/sql.ts';
import {
  holdsMatchedTerms,
  type ExactMatch,
  type SearchTable,
  type TextMatch,
} from '../search/relevance-page.ts';
import { searchWords } from '../search/search-words.ts';
import { matchWords, type Vocabulary } from '../search/vocabulary.ts';
import { parseDomain } from './domain.ts';
import { LISTED_STORE } from './listed-stores.ts';

export const STORE_VOCABULARY: Vocabulary = {
  table: 'store_search_vocabulary',
  countColumn: 'stores',
  documentsTable: 'stores',
};

/** a domain prefix shorter than this is not a match of its own (a few letters begin thousands of domains) */
const MIN_STEM_LENGTH = 4;
/** relevance of an exact domain, an exact name and a domain prefix: above any sum of word scores */
const BONUS = { domain: 1000, name: 300, stem: 200 } as const;

export interface StoreTextMatch extends TextMatch {
  /** q as the catalog spells it: a URL or www. domain becomes the bare domain, anything else trimmed */
  text: string;
  /** q as the start of a domain, when it is typed as one (with a dot, a dash or a digit) */
  stem: string | null;
}

/** The search text: a pasted URL or www. domain becomes the bare domain, anything else is trimmed. */
export function searchText(q: string): string {
  const asDomain = parseDomain(q);
  return asDomain.ok && /[./]/.test(q) ? asDomain.domain : q.trim();
}

export async function matchStoreText(pool: Queryable, q: string): Promise<StoreTextMatch> {
  const text = searchText(q);
  const lower = text.toLowerCase();
  // a domain is searched by its first label's words (its brand); its exact match and its prefix
  // come from the domain itself
  const wordsOf = lower.includes('.') && parseDomain(lower).ok ? lower.split('.')[0]! : lower;
  // a single word is found by its terms; a domain is typed with its dots, dashes or tier digit
  const domainLike = /^[\p{L}\p{N}][\p{L}\p{N}.-]*$/u.test(lower) && /[.\-\p{N}]/u.test(lower);
  const stem = domainLike && [...lower].length >= MIN_STEM_LENGTH ? lower : null;
  const { words, documents } = await matchWords(pool, STORE_VOCABULARY, searchWords(wordsOf));
  return { text, stem, words, documents };
}

const stemPattern = (stem: string) => `${stem.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Stores in the relevance engine's terms (src/search/relevance-page.ts): ties by visits, vanished stores left out. */
export const STORE_SEARCH_TABLE: SearchTable = {
  table: 'stores',
  alias: 's',
  order: 's.monthly_visits DESC, s.id',
  orderWhole: 's.monthly_visits + 0 DESC, s.id',
  walk: '(SELECT id, search_terms FROM stores ORDER BY monthly_visits DESC, id OFFSET 0) s',
  listed: LISTED_STORE,
  roundRobin: true,
  termListsUnestimated: true,
};

/** What a store search knows besides terms: the exact domain, the exact name, a domain typed without its TLD. */
export function storeExactMatches(match: StoreTextMatch, params: SqlParams): ExactMatch[] {
  const text = params.add(match.text);
  return [
    { condition: `s.domain = lower(${text})`, bonus: BONUS.domain, many: false },
    { condition: `lower(s.name) = lower(${text})`, bonus: BONUS.name, many: true },
    ...(match.stem
      ? [
          {
            condition: `s.domain LIKE ${params.add(stemPattern(match.stem))}`,
            bonus: BONUS.stem,
            many: true,
          },
        ]
      : []),
  ];
}

/** The match condition over `stores s`: an exact match or a matched term. */
export function storeTextCondition(match: StoreTextMatch, params: SqlParams): string {
  const holds = holdsMatchedTerms('s', match, params);
  return `(${[...storeExactMatches(match, params).map((e) => e.condition), ...(holds ? [holds] : [])].join(' OR ')})`;
}
