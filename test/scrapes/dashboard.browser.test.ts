// The internal dashboard in headless Chromium (Debian's chromium, driven by playwright-core): it
// lists recent scrapes and updates a row live as its job moves, without a reload.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mintApiKey } from '../../src/access/api-keys.ts';
import { startFixtureStorefronts, type FixtureStorefronts } from './support/fixture-storefronts.ts';
import { startScrapeHarness, type ScrapeHarness } from './support/scrape-harness.ts';
import { skipWithout } from '../support/skip-without.ts';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(skipWithout(existsSync(CHROMIUM)))('scrape dashboard in headless Chromium (needs /usr/bin/chromium)', () => {
  let fixtures: FixtureStorefronts;
  let harness: ScrapeHarness;
  let browser: Browser;
  let baseUrl: string;

  beforeAll(async () => {
    fixtures = await startFixtureStorefronts();
    harness = await startScrapeHarness({ env: { EGRESS_OVERRIDES: fixtures.overrides, EGRESS_TIMEOUT_MS: '10000' } });
    await harness.app.listen({ host: '127.0.0.1', port: 0 });
    baseUrl = `http://127.0.0.1:${(harness.app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
  });
  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await fixtures?.close();
  });

  it('shows an earlier scrape, then a new one moving to done live', async () => {
    const earlier = await harness.post('/v1/scrapes', { domain: 'notshop.test' });
    await harness.waitFor(earlier.body.id, ['failed']);

    const page = await browser.newPage();
    await page.goto(`${baseUrl}/dashboard/scrapes`);
    await page.waitForSelector('body[data-live="true"]');
    const earlierRow = page.locator(`tr[data-id="${earlier.body.id}"]`);
    await expect.poll(() => earlierRow.getAttribute('data-status')).toBe('failed');

    fixtures.hold('/products.json');
    const { body } = await harness.post('/v1/scrapes', { domain: 'shop-a.test' });
    const row = page.locator(`tr[data-id="${body.id}"]`);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('scraping');
    fixtures.release();
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 10_000 }).toBe('done');
    expect(await row.locator('td').first().textContent()).toBe('shop-a.test');
  });

  it('once keys exist, shows the typed key\'s account\'s scrapes live and no other account\'s', async () => {
    const mint = async (account: string) =>
      (await mintApiKey(harness.services.db.prisma, { accountExternalId: account, plan: 'starter' })).key;
    const own = await mint('dashboard-owner');
    const other = await mint('dashboard-other');
    const order = (key: string, domain: string) =>
      harness.app.inject({ method: 'POST', url: '/v1/scrapes', headers: { authorization: `Bearer ${key}` }, payload: { domain } });

    const page = await browser.newPage();
    await page.goto(`${baseUrl}/dashboard/scrapes`);
    await page.fill('#key', own);
    await Promise.all([page.waitForEvent('load'), page.click('#key-form button')]);
    await page.waitForSelector('body[data-live="true"]');

    const foreign = (await order(other, 'changing.test')).json();
    const mine = (await order(own, 'dropper.test')).json();
    const row = page.locator(`tr[data-id="${mine.id}"]`);
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 15_000 }).toBe('done');
    expect(await page.locator(`tr[data-id="${foreign.id}"]`).count()).toBe(0);
    // the key never appears in a URL the page requested
    expect(page.url()).not.toContain(own);
  });
});
