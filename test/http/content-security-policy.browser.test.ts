// The HTML pages' Content-Security-Policy in headless Chromium (src/http/security-headers.ts):
// GraphiQL, the /docs reference and the operations console each carry a fresh nonce per answer on
// every script they load and run with no violation; a script put into the page without the nonce
// (a tag, or an inline event handler, as an injection into the HTML would arrive) is refused and
// the page reports it (securitypolicyviolation), while the page itself goes on working.
import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startSeededServer, type SeededServer } from '../support/seeded-server.ts';
import { skipWithout } from '../support/skip-without.ts';
import {
  cspViolations,
  EVAL_PROBE,
  recordCspViolations,
  type CspViolation,
} from '../support/csp-violations.ts';

const CHROMIUM = '/usr/bin/chromium';

/** what the injected markup sets when it runs */
const INJECTED =
  '<script>window.__injected = "tag"</script>' +
  '<img src="data:," onerror="window.__injected = \'handler\'">';

const PAGES: Array<{
  name: string;
  path: string;
  ready: (page: Page) => Promise<unknown>;
  /** refusals a library asks for on purpose and handles: zod (in Scalar) probes whether eval is allowed, then does without */
  probes?: CspViolation[];
}> = [
  {
    name: 'GraphiQL',
    path: '/graphql',
    // the IDE is up and Monaco (whose editors run in blob: workers) filled the query editor
    ready: async (page) => {
      await page.waitForSelector('.graphiql-execute-button', { timeout: 120_000 });
      // (Monaco sets its spaces as non-breaking ones)
      await expect
        .poll(
          async () =>
            // biome-ignore lint/performance/useDomNodeTextContent: the rendered text keeps a break between Monaco's line elements
            (await page.locator('.graphiql-query-editor').innerText()).replace(/\s+/g, ' '),
          { timeout: 30_000 },
        )
        .toContain('query SearchStores {');
    },
  },
  {
    name: 'the /docs reference',
    path: '/docs/',
    probes: [EVAL_PROBE],
    ready: (page) =>
      page
        .getByRole('heading', { name: 'Store-Intelligence API', level: 1 })
        .waitFor({ timeout: 120_000 }),
  },
  {
    name: 'the operations console',
    path: '/dashboard/scrapes',
    // its live feed is connected (open-dev mode: no key exists on this server)
    ready: (page) => page.waitForSelector('body[data-live="true"]', { timeout: 120_000 }),
  },
];

describe.skipIf(skipWithout(existsSync(CHROMIUM)))(
  "the HTML pages' Content-Security-Policy in headless Chromium (needs /usr/bin/chromium)",
  () => {
    let server: SeededServer;
    let browser: Browser;
    const contexts: BrowserContext[] = [];

    beforeAll(async () => {
      server = await startSeededServer({ stores: 40 });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
      });
    }, 300_000);
    // a page's streams (the console's live feed) end with its context
    afterEach(async () => {
      for (const context of contexts.splice(0)) await context.close().catch(() => undefined);
    });
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    /** Opens a page, recording its CSP violations; `inject` goes into the served HTML before </head>. */
    async function open(path: string, inject?: string) {
      const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
      contexts.push(context);
      await recordCspViolations(context);
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      const url = `${server.baseUrl}${path}`;
      if (inject)
        await page.route(url, async (route) => {
          const response = await route.fetch();
          const body = (await response.text()).replace('</head>', `${inject}</head>`);
          await route.fulfill({ response, body });
        });
      const response = await page.goto(url, { waitUntil: 'domcontentloaded', timeout: 120_000 });
      const policy = response?.headers()['content-security-policy'] ?? '';
      const violations = () => cspViolations(page);
      return { page, policy, errors, violations };
    }
    const nonceOf = (policy: string) => /'nonce-([^']+)'/.exec(policy)?.[1];

    it.each(PAGES)(
      "$name: every script carries the answer's nonce, and the page works with no violation",
      async ({ path, ready, probes = [] }) => {
        const first = await open(path);
        const nonce = nonceOf(first.policy);
        expect(first.policy).toMatch(/(^|; )script-src 'nonce-[A-Za-z0-9+/]{22,}={0,2}'/);
        expect(first.policy).toContain("frame-ancestors 'none'");
        expect(first.policy).toContain("object-src 'none'");
        expect(first.policy).toContain("base-uri 'none'");
        await ready(first.page);
        const nonces = await first.page.evaluate(() =>
          [...document.querySelectorAll('script')].map((script) => script.nonce),
        );
        expect(nonces.length).toBeGreaterThan(0);
        expect(new Set(nonces)).toEqual(new Set([nonce]));
        expect(await first.violations()).toEqual(probes);
        expect(first.errors).toEqual([]);

        // another answer, another nonce
        const second = await open(path);
        expect(nonceOf(second.policy)).toBeDefined();
        expect(nonceOf(second.policy)).not.toBe(nonce);
      },
      300_000,
    );

    it.each(PAGES)(
      '$name: a script tag or inline handler injected without the nonce is refused and reported',
      async ({ path, ready }) => {
        const { page, violations } = await open(path, INJECTED);
        await ready(page);
        expect(await page.evaluate(() => (window as { __injected?: string }).__injected)).toBe(
          undefined,
        );
        const directives = (await violations()).map((violation) => violation.directive);
        expect(directives).toContain('script-src-elem');
        expect(directives).toContain('script-src-attr');
      },
      300_000,
    );
  },
);
