// The one canonical shape of a legacy summary. Both adapters write it and read through it, so the
// same input comes back as the same object whichever backend holds it: every optional field
// present (null or []), all six socials keys present, lastCrawledAt as a full ISO 8601 UTC
// string, and nothing else — no _id, no stray fields a legacy crawler may have left in a document.
import { z } from 'zod';
import type { LegacySocials, LegacySummary } from './port.ts';

export const SOCIAL_NETWORKS = [
  'instagram',
  'facebook',
  'tiktok',
  'twitter',
  'youtube',
  'pinterest',
] as const;

/** What readers get: LegacySummary with every optional field filled in. */
export type CanonicalSummary = Required<LegacySummary> & { socials: Required<LegacySocials> };

const nullableText = z.string().nullish();
const writableSummary = z.object({
  domain: z.string().min(1),
  legacyId: z.string().regex(/^[0-9a-f]{24}$/i, 'must be 24 hex characters'),
  title: nullableText,
  description: nullableText,
  screenshotUrl: nullableText,
  socials: z.object(Object.fromEntries(SOCIAL_NETWORKS.map((n) => [n, nullableText]))).partial(),
  emails: z.array(z.string()),
  phones: z.array(z.string()).optional(),
  lastCrawledAt: z.iso.datetime({ offset: true }).nullish(),
});

/** Validates a summary about to be written and returns its canonical form. Throws on bad data so
 *  a broken seed or scrape fails loudly instead of storing a document readers cannot use. */
export function canonicalForWrite(summary: LegacySummary): CanonicalSummary {
  const parsed = writableSummary.safeParse(summary);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new TypeError(`invalid legacy summary for ${String(summary?.domain)}: ${problems}`);
  }
  return canonicalFromDocument(parsed.data);
}

/** The last summary of each domain, canonical; a batch naming a domain twice keeps the last one
 *  (as two upserts in a row would). */
export function canonicalBatch(summaries: readonly LegacySummary[]): CanonicalSummary[] {
  const byDomain = new Map<string, CanonicalSummary>();
  for (const s of summaries) byDomain.set(s.domain, canonicalForWrite(s));
  return [...byDomain.values()];
}

const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const texts = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];

function isoTime(value: unknown): string | null {
  const date = value instanceof Date ? value : typeof value === 'string' ? new Date(value) : null;
  return date && !Number.isNaN(date.getTime()) ? date.toISOString() : null;
}

/** Reads a stored document (either backend's, or a legacy crawler's older one) leniently. */
export function canonicalFromDocument(doc: Record<string, unknown>): CanonicalSummary {
  const socials = (doc.socials ?? {}) as Record<string, unknown>;
  return {
    domain: String(doc.domain ?? doc._id),
    legacyId: String(doc.legacyId),
    title: text(doc.title),
    description: text(doc.description),
    screenshotUrl: text(doc.screenshotUrl),
    socials: Object.fromEntries(
      SOCIAL_NETWORKS.map((n) => [n, text(socials[n])]),
    ) as Required<LegacySocials>,
    emails: texts(doc.emails),
    phones: texts(doc.phones),
    lastCrawledAt: isoTime(doc.lastCrawledAt),
  };
}

/** Each key once, so a batch read never asks twice for the same document. */
export const distinctKeys = (keys: readonly string[]): string[] => [...new Set(keys)];

/** Milliseconds since a performance.now() reading, to a tenth (health reports). */
export const elapsedMs = (started: number): number =>
  Math.round((performance.now() - started) * 10) / 10;
