// The operations console (/dashboard/scrapes) in headless Chromium (Debian's chromium, driven by
// playwright-core), against a gateway whose worker runs the catalog's scheduler over the storefront
// farm: empty states before anything happened; the crawler's panels filling live as discovery
// observes farm stores; a scrape queued from the form followed to done; once keys exist, a key
// asked for (and no request loop while it is missing), a user key's scrapes without the crawler
// panels, an operator key's full console. The network is cut: anything the page asked of another
// host would be recorded and fail the test. Screenshots go to test-results/console (or
// SCREENSHOTS_DIR): the run's artifacts.
import { existsSync, mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { queueTick } from '../../src/crawler/catalog-tick.ts';
import { offerCandidates } from '../../src/storefront/catalog-candidates.sql.ts';
import { behaviourOf, type Behaviour } from '../support/storefront-farm/farm-store.ts';
import {
  startStorefrontFarm,
  type StorefrontFarm,
} from '../support/storefront-farm/farm-server.ts';
import { skipWithout } from '../support/skip-without.ts';
import { cspViolations, recordCspViolations } from '../support/csp-violations.ts';
import { startScrapeHarness, type ScrapeHarness } from './support/scrape-harness.ts';

const CHROMIUM = '/usr/bin/chromium';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);
const SCREENSHOTS = process.env.SCREENSHOTS_DIR ?? 'test-results/console';

describe.skipIf(skipWithout(existsSync(CHROMIUM)))(
  'operations console in headless Chromium (needs /usr/bin/chromium)',
  () => {
    let farm: StorefrontFarm;
    let harness: ScrapeHarness;
    let browser: Browser;
    let baseUrl: string;
    /** requests the pages tried that left the machine */
    const blocked: string[] = [];
    const pageErrors: string[] = [];

    beforeAll(async () => {
      farm = await startStorefrontFarm({ stores: 400 });
      harness = await startScrapeHarness({
        env: {
          EGRESS_OVERRIDES: farm.overrides,
          EGRESS_TIMEOUT_MS: '5000',
          CATALOG_CONCURRENCY: '8',
          CATALOG_WORKER_CONCURRENCY: '8',
        },
      });
      await harness.app.listen({ host: '127.0.0.1', port: 0 });
      baseUrl = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}`;
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
        ],
      });
      mkdirSync(SCREENSHOTS, { recursive: true });
    });
    afterAll(async () => {
      await browser?.close();
      await harness?.close();
      await farm?.close();
    });

    /** a fresh tab in a fresh context (its own storage), cut off from every host but this machine */
    async function openConsole(): Promise<{
      page: Page;
      context: BrowserContext;
      graphqlRequests: () => number;
    }> {
      const context = await browser.newContext({ viewport: { width: 1440, height: 1100 } });
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (LOOPBACK.has(url.hostname)) return route.continue();
        blocked.push(url.href);
        return route.abort('internetdisconnected');
      });
      // the console works under its Content-Security-Policy: nothing of its own is refused
      await recordCspViolations(context);
      const page = await context.newPage();
      page.on('pageerror', (error) => pageErrors.push(error.message));
      let graphql = 0;
      page.on('request', (request) => {
        if (new URL(request.url()).pathname === '/graphql') graphql++;
      });
      await page.goto(`${baseUrl}/dashboard/scrapes`);
      return { page, context, graphqlRequests: () => graphql };
    }

    const shot = (page: Page, name: string) =>
      page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true });
    // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, with breaks between table cells and rows
    const text = (page: Page, selector: string) => page.locator(selector).innerText();

    /** listed farm stores of a behaviour */
    const farmStores = (behaviour: Behaviour, count: number, from = 0) =>
      farm
        .hosts()
        .filter(
          (_host, index) => index >= from && behaviourOf(farm.options.seed, index) === behaviour,
        )
        .slice(0, count);

    it('before anything happened: live, with an empty state in every panel', async () => {
      const { page, context } = await openConsole();
      await page.waitForSelector('body[data-live="true"]');
      await expect
        .poll(() => text(page, '#throughput'))
        .toContain('No observations in the last 60 minutes');
      expect(await text(page, '#freshness')).toContain("No stores on the crawler's schedule yet");
      // the command it names is set as code, whole
      expect(await page.locator('#freshness code').allInnerTexts()).toEqual([
        'npm run catalog -- import FILE',
      ]);
      expect(await text(page, '#outcomes')).toContain('Nothing observed in this window');
      expect(await page.locator('#scrapes-empty').isVisible()).toBe(true);
      expect(await text(page, '#connection')).toBe('Live');
      await shot(page, 'console-empty');
      await context.close();
    });

    it('fills live as the crawler observes farm stores, and follows a scrape queued from the form to done', async () => {
      const { page, context } = await openConsole();
      await page.waitForSelector('body[data-live="true"]');
      const domains = [
        ...farmStores('ordinary', 40),
        ...farmStores('rate-limited', 3),
        ...farmStores('moved', 2),
        ...farmStores('not-shopify', 2),
        ...farmStores('failing-homepage', 1),
      ];
      await offerCandidates(harness.services.db.pool, domains, {
        source: 'import',
        foundOn: 'console test',
        now: new Date(),
      });
      await queueTick(harness.services.db.pool);

      // within a few snapshots: observations per minute, outcomes by reason, freshness, the worker
      await expect
        .poll(async () => Number((await text(page, '#kpi-success-note')).split(' ')[0]), {
          timeout: 60_000,
          interval: 1_000,
        })
        .toBeGreaterThanOrEqual(domains.length);
      expect(await page.locator('#throughput svg rect.bar.ok').count()).toBeGreaterThan(0);
      expect(await page.locator('#throughput svg rect.bar.failed').count()).toBeGreaterThan(0);
      const outcomes = await text(page, '#outcomes');
      expect(outcomes).toContain('read · discovery');
      expect(outcomes).toContain('moved · discovery');
      expect(outcomes).toContain('not shopify · discovery');
      await expect
        .poll(
          // biome-ignore lint/performance/useDomNodeTextContent: the count as shown, like the other reads of this page
          () => page.locator('#freshness .hbar[data-label="under 1 hour"] .count').innerText(),
          { timeout: 15_000 },
        )
        .toMatch(/^[1-9]\d* · 100 %$/);
      expect(await page.locator('#workers tr[data-worker]').count()).toBe(1);
      expect(await page.locator('#queue table, #queue .empty').count()).toBe(1);
      expect(await text(page, '#kpi-stores-note')).toMatch(/^\d+ active · 0 failing · 0 vanished$/);

      // a scrape from the form: its row appears at once and moves to done without a reload
      const target = farmStores('ordinary', 1, 300)[0]!;
      await page.fill('#scrape-domain', target);
      await page.click('#scrape-form button[type="submit"]');
      await expect.poll(() => text(page, '#scrape-result')).toBe(`Queued ${target}.`);
      const row = page.locator('#scrapes tr').filter({ hasText: target });
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('done');
      expect(await row.locator('td[data-time]').first().getAttribute('title')).toMatch(
        /\d{4}, \d{2}:\d{2}:\d{2}$/,
      );
      // the catalog holds it now: queueing it again says so instead of queueing
      await page.fill('#scrape-domain', target);
      await page.click('#scrape-form button[type="submit"]');
      await expect.poll(() => text(page, '#scrape-result')).toContain('already in the catalog');
      // a domain that is not one is the API's bad_request, shown as such
      await page.fill('#scrape-domain', 'not a domain');
      await page.click('#scrape-form button[type="submit"]');
      await expect.poll(() => text(page, '#scrape-result')).toContain('Invalid domain');
      await page.fill('#scrape-domain', '');
      await page.locator('#scrape-result').evaluate((node) => (node.textContent = ''));
      await shot(page, 'console-live');
      expect(await cspViolations(page)).toEqual([]);
      await context.close();
    });

    it('once keys exist: asks for a key instead of retrying, then shows what the typed key may read', async () => {
      const mint = async (account: string, scopes: string[] = []) =>
        (
          await mintApiKey(harness.services.db.prisma, {
            accountExternalId: account,
            plan: 'pro',
            scopes,
          })
        ).key;
      const user = await mint('console-user');
      const other = await mint('console-other');
      const operator = await mint('console-operator', ['operations:read']);

      const { page, context, graphqlRequests } = await openConsole();
      await page.waitForSelector('#key-dialog[open]');
      expect(await text(page, '#connection')).toBe('Key needed');
      const asked = graphqlRequests();
      await page.waitForTimeout(4_000);
      expect(graphqlRequests()).toBe(asked); // nothing retried while the key is missing
      // the refusal's commands, headers and scope read as code; a command wraps between its words only
      const codes = await page.locator('#key-reason code').allInnerTexts();
      expect(codes).toContain('operations:read');
      expect(codes.some((c) => c.startsWith('npm run keys -- create'))).toBe(true);
      const commandLines = await page
        .locator('#key-reason code', { hasText: 'npm run keys' })
        .locator('span')
        .evaluateAll((spans) => spans.every((span) => span.getClientRects().length === 1));
      expect(commandLines).toBe(true);
      await shot(page, 'console-key-needed');

      // a user key: its account's scrapes, live; the crawler's panels say why they are closed
      await page.fill('#key', user);
      await page.click('#key-save');
      await page.waitForSelector('body[data-live="true"]');
      // the key is in the page's memory alone: no storage or cookie of the origin holds it, and a
      // reload asks for it again
      const kept = await page.evaluate(() => ({
        session: Object.keys(sessionStorage).map((name) => sessionStorage.getItem(name)),
        local: Object.keys(localStorage).map((name) => localStorage.getItem(name)),
        cookie: document.cookie,
      }));
      expect(JSON.stringify(kept)).not.toContain(user);
      expect(kept).toEqual({ session: [], local: [], cookie: '' });
      expect(await context.cookies()).toEqual([]);
      await page.reload();
      await page.waitForSelector('#key-dialog[open]');
      expect(await page.locator('#key').inputValue()).toBe('');
      await page.fill('#key', user);
      await page.click('#key-save');
      await page.waitForSelector('body[data-live="true"]');
      await expect
        .poll(() => page.locator('#queue-panel').getAttribute('data-locked'))
        .toBe('true');
      expect(await page.locator('#queue-panel').getAttribute('data-locked-text')).toContain(
        'operations:read',
      );
      const order = (key: string, domain: string) =>
        harness.app.inject({
          method: 'POST',
          url: '/v1/scrapes',
          headers: { authorization: `Bearer ${key}` },
          payload: { domain },
        });
      const foreign = (await order(other, farmStores('ordinary', 1, 320)[0]!)).json();
      const mine = (await order(user, farmStores('ordinary', 1, 340)[0]!)).json();
      const row = page.locator(`tr[data-id="${mine.id}"]`);
      await expect.poll(() => row.getAttribute('data-status'), { timeout: 20_000 }).toBe('done');
      expect(await page.locator(`tr[data-id="${foreign.id}"]`).count()).toBe(0);
      expect(page.url()).not.toContain(user);

      // an operator key: everything
      await page.click('#key-button');
      await page.fill('#key', operator);
      await page.click('#key-save');
      await expect
        .poll(() => page.locator('#queue-panel').getAttribute('data-locked'), { timeout: 15_000 })
        .toBe('false');
      await expect.poll(() => text(page, '#kpi-stores')).not.toBe('–');
      expect(page.url()).not.toContain(operator);
      await context.close();

      expect(blocked).toEqual([]);
      expect(pageErrors).toEqual([]);
    });
  },
);
