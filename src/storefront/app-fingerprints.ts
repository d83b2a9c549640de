// Apps detected on a storefront: an app of the catalog (apps table) runs on the store when any of
// its detection patterns (JavaScript regular-expression sources, case-insensitive) matches the
// homepage HTML. Patterns are compiled once per scrape; a pattern that does not compile is skipped.
// The page is read once for the literals the patterns cannot match without (literal-prefilter.ts),
// and only the patterns whose literal occurs are run: the same verdicts, a third of the time.
import type pg from 'pg';
import { LiteralSet, requiredLiteral } from './literal-prefilter.ts';

export interface AppFingerprint {
  id: number;
  slug: string;
  name: string;
  category: string | null;
  patterns: RegExp[];
}

export interface AppRow {
  id: number;
  slug: string;
  name: string;
  category: string | null;
  detection_patterns: string[];
}

export function compileFingerprint(row: AppRow): AppFingerprint {
  return {
    id: row.id,
    slug: row.slug,
    name: row.name,
    category: row.category,
    patterns: row.detection_patterns.flatMap((source) => {
      try {
        return [new RegExp(source, 'i')];
      } catch {
        return [];
      }
    }),
  };
}

export async function loadAppFingerprints(pool: Pick<pg.Pool, 'query'>): Promise<AppFingerprint[]> {
  const { rows } = await pool.query<AppRow>(
    'SELECT id, slug, name, category, detection_patterns FROM apps ORDER BY slug',
  );
  return rows.map(compileFingerprint);
}

/**
 * Storefronts serve many loader URLs inside JSON or JavaScript strings, escaped as they are there:
 * `https:\/\/shopify.privy.com\/widget.js`, `\u002F\u002Fcdn.judge.me`. Patterns are written for the
 * URLs themselves, so they are matched against the text with those escapes undone as well.
 */
export function unescapedScriptText(html: string): string {
  return html
    .replace(/\\\//g, '/')
    .replace(/\\u002f/gi, '/')
    .replace(/\\u0026/gi, '&')
    .replace(/&amp;/g, '&');
}

interface Prefilter {
  literals: LiteralSet;
  /** per app, per pattern: the index of its literal in `literals`, or -1 when it has none (always run) */
  literalOf: number[][];
}

const prefilters = new WeakMap<readonly AppFingerprint[], Prefilter>();

function prefilterOf(apps: readonly AppFingerprint[]): Prefilter {
  let prefilter = prefilters.get(apps);
  if (!prefilter) {
    const index = new Map<string, number>();
    const literalOf = apps.map((app) =>
      app.patterns.map((pattern) => {
        const literal = requiredLiteral(pattern.source);
        if (literal === null) return -1;
        if (!index.has(literal)) index.set(literal, index.size);
        return index.get(literal)!;
      }),
    );
    prefilter = { literals: new LiteralSet([...index.keys()]), literalOf };
    prefilters.set(apps, prefilter);
  }
  return prefilter;
}

export function detectApps(html: string, apps: readonly AppFingerprint[]): AppFingerprint[] {
  const unescaped = unescapedScriptText(html);
  const { literals, literalOf } = prefilterOf(apps);
  const present = new Set<number>();
  literals.collect(html, present);
  literals.collect(unescaped, present);
  return apps.filter((app, a) =>
    app.patterns.some((pattern, p) => {
      const literal = literalOf[a]![p]!;
      return (
        (literal < 0 || present.has(literal)) && (pattern.test(html) || pattern.test(unescaped))
      );
    }),
  );
}

/** App categories the models read; the same rules as the store profile's model explanations. */
export const REVIEWS_CATEGORIES: ReadonlySet<string> = new Set(['Reviews']);
export const SUPPORT_CATEGORIES: ReadonlySet<string> = new Set(['Customer support', 'Live chat']);
export const DROPSHIPPING_CATEGORIES: ReadonlySet<string> = new Set([
  'Dropshipping',
  'Print on demand',
]);

/**
 * The app catalog's fingerprints, loaded at most once per `ttlMs` for a process that observes many
 * stores a second (the scheduler); a change to the apps table is seen within `ttlMs`.
 */
export function cachedAppFingerprints(
  pool: Pick<pg.Pool, 'query'>,
  ttlMs: number,
): () => Promise<AppFingerprint[]> {
  let loaded: { at: number; apps: Promise<AppFingerprint[]> } | undefined;
  return () => {
    if (!loaded || Date.now() - loaded.at > ttlMs) {
      const apps = loadAppFingerprints(pool);
      loaded = { at: Date.now(), apps };
      apps.catch(() => (loaded = undefined));
    }
    return loaded.apps;
  };
}
