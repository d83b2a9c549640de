// The GraphQL IDE and the HTML reference in headless Chromium with the network cut: every request
// to a host other than this machine is blocked (and recorded), host names other than 127.0.0.1
// do not resolve. Both pages must load, work and ask for nothing from elsewhere. With
// SCREENSHOTS_DIR set, each test leaves a screenshot there (the closing note's pictures).
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEEDED } from '../../src/seed/seeded-catalog.ts';
import { startSeededServer, type SeededServer } from '../support/seeded-server.ts';
import { skipWithout } from '../support/skip-without.ts';
import { cspViolations, EVAL_PROBE, recordCspViolations } from '../support/csp-violations.ts';

const CHROMIUM = '/usr/bin/chromium';
const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

describe.skipIf(skipWithout(existsSync(CHROMIUM)))(
  'GraphiQL and /docs offline in headless Chromium (needs /usr/bin/chromium)',
  () => {
    let server: SeededServer;
    let browser: Browser;
    let context: BrowserContext;
    /** every request the pages tried that left the machine */
    const blocked: string[] = [];

    beforeAll(async () => {
      server = await startSeededServer({ stores: 40 });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: [
          '--headless',
          '--no-sandbox',
          '--disable-gpu',
          '--disable-background-networking',
          '--disable-component-update',
          '--no-first-run',
          // the network cut at the resolver too: no name but the loopback address resolves
          '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
        ],
      });
      context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      // both pages work under their Content-Security-Policy: nothing of theirs is refused
      await recordCspViolations(context);
      await context.route('**/*', (route) => {
        const url = new URL(route.request().url());
        if (url.protocol === 'data:' || url.protocol === 'blob:' || LOOPBACK.has(url.hostname))
          return route.continue();
        blocked.push(url.href);
        return route.abort('internetdisconnected');
      });
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const screenshot = async (page: Page, name: string) => {
      const dir = process.env.SCREENSHOTS_DIR;
      if (!dir) return;
      mkdirSync(dir, { recursive: true });
      await page.screenshot({ path: join(dir, `${name}.png`) });
    };

    /** Runs one operation of the document: with several, GraphiQL's run button asks which. */
    const run = async (page: Page, operationName: string) => {
      await page.click('.graphiql-execute-button');
      await page.getByRole('menuitem', { name: operationName }).click();
    };
    /** an element's text with Monaco's non-breaking spaces made plain */
    const textOf = async (page: Page, selector: string) =>
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text keeps a break between Monaco's line elements
      (await page.locator(selector).innerText()).replace(/\s+/g, ' ');
    const result = (page: Page) => textOf(page, '.result-window');

    it('GraphiQL opens on a working example: search, then the profile of a returned domain, the key header in view', async () => {
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.baseUrl}/graphql`);
      await page.waitForSelector('.graphiql-execute-button');

      // Monaco fills its editors a moment after the page is up
      await expect
        .poll(() => textOf(page, '.graphiql-query-editor'), { timeout: 10_000 })
        .toContain('query SearchStores {');
      await expect
        .poll(() => textOf(page, '.graphiql-editor-tool'), { timeout: 10_000 })
        .toContain('"X-Api-Key": ""');
      await screenshot(page, 'graphiql-first-tab');

      await run(page, 'SearchStores');
      await expect
        .poll(() => result(page), { timeout: 15_000 })
        .toContain(`"domain": "${SEEDED.domain}"`);

      // the variables pane already names the domain the search returned
      await page.getByText('Variables', { exact: true }).click();
      await expect
        .poll(() => textOf(page, '.graphiql-editor-tool'), { timeout: 10_000 })
        .toContain(`"domain": "${SEEDED.domain}"`);
      await run(page, 'StoreProfile');
      await expect.poll(() => result(page), { timeout: 15_000 }).toContain('"apps": [');
      expect(await result(page)).toContain(`"domain": "${SEEDED.domain}"`);
      await screenshot(page, 'graphiql-offline');

      expect(await cspViolations(page)).toEqual([]);
      expect(errors).toEqual([]);
      expect(blocked).toEqual([]);
    });

    it('/docs renders the reference of /v1/openapi.json, linked from /', async () => {
      const root = (await (await fetch(`${server.baseUrl}/`)).json()) as {
        links: { reference: string };
      };
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(`${server.baseUrl}${root.links.reference}`);
      await page
        .getByRole('heading', { name: 'Store-Intelligence API', level: 1 })
        .waitFor({ timeout: 30_000 });
      // the route table's operations are in the navigation
      await page.getByText('Stores', { exact: true }).first().click();
      await page.getByText('Search stores, or roll them up by a grouping').first().waitFor();
      await screenshot(page, 'docs-offline');

      expect(await cspViolations(page)).toEqual([EVAL_PROBE]);
      expect(errors).toEqual([]);
      expect(blocked).toEqual([]);
    });
  },
);
