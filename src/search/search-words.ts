// A search text as words, split exactly as the database splits names and titles into their
// search terms (the SQL function search_terms in the store search migration): lower case, broken
// at anything that is not a letter or a digit and between letters and digits.

/** Words of a query beyond this many are ignored (a pasted sentence is not a search). */
export const MAX_SEARCH_WORDS = 6;

export function searchWords(text: string): string[] {
  const words = text
    .toLowerCase()
    .replace(/(\p{L})(?=\p{N})|(\p{N})(?=\p{L})/gu, '$1$2 ')
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
  return [...new Set(words)].slice(0, MAX_SEARCH_WORDS);
}

/**
 * Typing mistakes a word may carry and still match a term, as Elasticsearch's AUTO fuzziness
 * counts them: none up to 2 characters, one from 3 to 5, two from 6 on; a transposition of two
 * neighbouring letters counts as one.
 */
export function allowedEdits(word: string): number {
  const length = [...word].length;
  if (length <= 2) return 0;
  return length <= 5 ? 1 : 2;
}
