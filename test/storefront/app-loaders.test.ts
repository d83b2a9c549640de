// Every detection pattern of data/apps.json against how its app really loads: the loader URLs and
// markup of test/storefront/fixtures/app-loaders.json were found on real storefronts and public
// pages (each entry says where). A real loader must be found as its app and as no other, both as a
// script tag and JSON-escaped in Shopify's asyncLoad list; real URLs of other apps, and ordinary
// text that once matched a pattern, must show no app at all. An app no storefront evidence was found
// for has no patterns at all (a guess only finds other code), and data/apps.json says why.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compileFingerprint, detectApps } from '../../src/storefront/app-fingerprints.ts';

interface Evidence {
  url?: string;
  markup?: string;
  seenIn: string;
}
type LabelledApp =
  | { slug: string; status: 'verified'; loaders: Evidence[] }
  | { slug: string; status: 'undetectable'; reason: string };
interface Fixture {
  apps: LabelledApp[];
  negatives: Array<{ url: string; is: string; seenIn: string }>;
  negativeText: Array<{ text: string; is: string; seenIn: string }>;
}

const read = <T>(path: string): T =>
  JSON.parse(readFileSync(new URL(path, import.meta.url), 'utf8')) as T;
const fixture = read<Fixture>('./fixtures/app-loaders.json');
const catalog = read<{
  apps: Array<{
    slug: string;
    name: string;
    category: string;
    detectionPatterns: string[];
    notDetectable?: string;
  }>;
}>('../../data/apps.json');
const catalogApp = (slug: string) => catalog.apps.find((a) => a.slug === slug)!;
const apps = catalog.apps.map((app, id) =>
  compileFingerprint({
    id,
    slug: app.slug,
    name: app.name,
    category: app.category,
    detection_patterns: app.detectionPatterns,
  }),
);
const slugsIn = (html: string) =>
  detectApps(html, apps)
    .map((app) => app.slug)
    .sort();

/** a loader URL as a theme or app block writes it */
const scriptTag = (url: string) =>
  `<script src="${url.replace(/&/g, '&amp;')}" defer="defer"></script>`;
/** a loader URL in the asyncLoad list Shopify renders for installed apps: "\/" and \u0026 escaped */
const asyncLoad = (url: string) =>
  `<script>(function() { function asyncLoad() { var urls = [${JSON.stringify(url)
    .replace(/\//g, '\\/')
    .replace(/&/g, '\\u0026')}]; } })();</script>`;

describe('app detection against real loaders (test/storefront/fixtures/app-loaders.json)', () => {
  it('labels every app of data/apps.json: verified with evidence, or undetectable with the reason', () => {
    expect(fixture.apps.map((a) => a.slug).sort()).toEqual(catalog.apps.map((a) => a.slug).sort());
    for (const app of fixture.apps) {
      expect(['verified', 'undetectable'], app.slug).toContain(app.status);
      const inCatalog = catalogApp(app.slug);
      if (app.status === 'verified') {
        expect(app.loaders.length, app.slug).toBeGreaterThan(0);
        for (const loader of app.loaders) {
          expect(Boolean(loader.url) !== Boolean(loader.markup), app.slug).toBe(true);
          expect(loader.seenIn, app.slug).not.toBe('');
        }
        expect(inCatalog.detectionPatterns.length, app.slug).toBeGreaterThan(0);
        expect(inCatalog.notDetectable, app.slug).toBeUndefined();
      } else {
        expect(app.reason, app.slug).not.toBe('');
        // no evidence, no pattern: data/apps.json marks it and says why, for the docs
        expect(inCatalog.detectionPatterns, app.slug).toEqual([]);
        expect(inCatalog.notDetectable ?? '', app.slug).not.toBe('');
      }
    }
  });

  for (const app of fixture.apps) {
    if (app.status !== 'undetectable') continue;
    const { name } = catalogApp(app.slug);
    it(`never finds ${app.slug}, not even on a page naming it and its hosts`, () => {
      const page =
        `<p>${name} (${app.slug})</p>` +
        scriptTag(`https://${app.slug}.com/widget.js?shop=x.myshopify.com`) +
        asyncLoad(`https://cdn.${app.slug}.com/loader.js?shop=x.myshopify.com`);
      expect(slugsIn(page)).not.toContain(app.slug);
    });
  }

  for (const app of fixture.apps) {
    if (app.status !== 'verified') continue;
    for (const loader of app.loaders) {
      if (loader.url) {
        it(`finds ${app.slug} loaded from ${loader.url}`, () => {
          expect(slugsIn(scriptTag(loader.url!)), 'script tag').toEqual([app.slug]);
          expect(slugsIn(asyncLoad(loader.url!)), 'asyncLoad').toEqual([app.slug]);
        });
      } else {
        it(`finds ${app.slug} in its markup ${loader.markup!.slice(0, 60)}`, () => {
          expect(slugsIn(loader.markup!)).toEqual([app.slug]);
        });
      }
    }
  }

  for (const negative of fixture.negatives) {
    it(`finds no app in ${negative.url} (${negative.is})`, () => {
      expect(slugsIn(scriptTag(negative.url)), 'script tag').toEqual([]);
      expect(slugsIn(asyncLoad(negative.url)), 'asyncLoad').toEqual([]);
    });
  }

  for (const negative of fixture.negativeText) {
    it(`finds no app in text: ${negative.is}`, () => {
      expect(slugsIn(`<p>${negative.text}</p>`)).toEqual([]);
    });
  }
});
