// A newcomer's first clicks in headless Chromium, on a server in open-dev mode over the seeded
// catalog: GET / is a page linking to the reference; the reference's "Test Request" for a store
// search and for the facets sends the documented example (no empty Authorization header, a JSON
// Accept answered with JSON, to this host, not //v1/…) and gets real data back; every Scrapes, Signals
// and Alerts operation shows its example request and the answer recorded for it on a fresh install.
import { existsSync, readFileSync } from 'node:fs';
import type { ParameterObject, RequestBodyObject } from 'openapi3-ts/oas31';
import { chromium, type Browser, type Page, type Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildOpenApiDocument } from '../../rest/openapi/document.ts';
import { operationsOf } from '../../rest/openapi/request-examples.ts';
import { SEEDED } from '../../src/seed/seeded-catalog.ts';
import { startSeededServer, type SeededServer } from '../support/seeded-server.ts';
import { skipWithout } from '../support/skip-without.ts';
import { cspViolations, EVAL_PROBE, recordCspViolations } from '../support/csp-violations.ts';

const CHROMIUM = '/usr/bin/chromium';

describe.skipIf(skipWithout(existsSync(CHROMIUM)))(
  'the root page and the /docs console in headless Chromium (needs /usr/bin/chromium)',
  () => {
    let server: SeededServer;
    let browser: Browser;

    beforeAll(async () => {
      server = await startSeededServer({ stores: 40 });
      browser = await chromium.launch({
        executablePath: CHROMIUM,
        args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
      });
    }, 300_000);
    afterAll(async () => {
      await browser?.close();
      await server?.close();
    });

    const newPage = async () => {
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      page.setDefaultTimeout(120_000);
      // the reference's Test Request works under its Content-Security-Policy: nothing of its own is refused
      await recordCspViolations(page);
      return page;
    };

    it('GET / in a browser is a page whose links lead to the reference', async () => {
      const page = await newPage();
      await page.goto(`${server.baseUrl}/`);
      expect(await page.locator('a[href="/graphql"]').count()).toBe(1);
      expect(await page.locator('a[href="/dashboard/scrapes"]').count()).toBe(1);
      // biome-ignore lint/performance/useDomNodeTextContent: the test reads the command as rendered, not the markup's text
      expect(await page.locator('code').innerText()).toContain('npm run keys -- create');
      await page.getByRole('link', { name: 'API reference' }).click();
      await page.getByRole('heading', { name: 'Store-Intelligence API', level: 1 }).waitFor();
      await page.close();
    }, 300_000);

    /** Opens the operation's "Test Request" panel, sends it as prefilled and returns what was sent and answered. */
    async function tryIt(
      page: Page,
      path: string,
    ): Promise<{ request: Request; status: number; body: unknown; sendLine: string }> {
      await page.goto(`${server.baseUrl}/docs/`);
      await page.getByRole('heading', { name: 'Store-Intelligence API', level: 1 }).waitFor();
      await page.getByText('Stores', { exact: true }).first().click();
      await page.getByRole('button', { name: `Test Request (get ${path})` }).click();
      const send = page.getByRole('button', { name: /Send/ }).first();
      await send.waitFor();
      const sendLine =
        // biome-ignore lint/performance/useDomNodeTextContent: the test compares the line as rendered, not the markup's text
        (await send.locator('xpath=ancestor::*[contains(., "/v1/")][1]').innerText()).replace(
          /\s+/g,
          '',
        );
      const [request] = await Promise.all([
        page.waitForRequest((r) => new URL(r.url()).pathname === path),
        send.click(),
      ]);
      const response = (await request.response())!;
      return { request, status: response.status(), body: await response.json(), sendLine };
    }

    it("the store search's Test Request sends the documented example and answers store cards", async () => {
      const page = await newPage();
      const { request, status, body, sendLine } = await tryIt(page, '/v1/stores');
      expect(sendLine).not.toContain('//v1');
      expect(request.headers().authorization).toBeUndefined();
      const url = new URL(request.url());
      expect(url.searchParams.get('q')).toBe(SEEDED.brand);
      expect(url.searchParams.has('notApp')).toBe(false);
      expect(status).toBe(200);
      expect((body as { data: Array<{ domain: string }> }).data[0]?.domain).toBe(SEEDED.domain);
      expect(await cspViolations(page)).toEqual([EVAL_PROBE]);
      await page.close();
    }, 300_000);

    it("the facets' Test Request answers real counts", async () => {
      const page = await newPage();
      const { status, body } = await tryIt(page, '/v1/stores/facets');
      expect(status).toBe(200);
      expect((body as { stores: number }).stores).toBeGreaterThan(0);
      await page.close();
    }, 300_000);

    it('every Scrapes, Signals and Alerts operation shows its example request and its recorded answer', async () => {
      const stored = JSON.parse(
        readFileSync(new URL('../../rest/openapi/response-examples.json', import.meta.url), 'utf8'),
      ) as Record<string, unknown>;
      const operations = operationsOf(buildOpenApiDocument());
      const page = await newPage();
      await page.goto(`${server.baseUrl}/docs/`);
      await page.getByRole('heading', { name: 'Store-Intelligence API', level: 1 }).waitFor();
      const missing: string[] = [];
      for (const tag of ['Scrapes', 'Signals', 'Alerts']) {
        await page.getByText(tag, { exact: true }).first().click();
        for (const { path, operation } of operations.filter((o) => o.operation.tags?.[0] === tag)) {
          const id = operation.operationId!;
          await page
            .locator('nav, aside')
            .getByText(operation.summary!, { exact: true })
            .first()
            .click();
          // the request: its path with the example values, its JSON body
          let url = path;
          for (const parameter of (operation.parameters ?? []) as ParameterObject[])
            if (parameter.in === 'path')
              url = url.replace(`{${parameter.name}}`, String(parameter.example));
          const body = (operation.requestBody as RequestBodyObject | undefined)?.content[
            'application/json'
          ]?.example;
          // the answer: the opening lines of one of its recorded answers, as Scalar prints JSON
          const answers = Object.keys(stored)
            .filter((key) => key.split(':')[0] === id)
            .map((key) => JSON.stringify(stored[key], null, 2).split('\n').slice(0, 4).join('\n'));
          const shown = async () => {
            // biome-ignore lint/performance/useDomNodeTextContent: the text as shown, the examples' JSON with its line breaks
            const text = await page.locator('body').innerText();
            return (
              text.includes(url) &&
              (body === undefined || text.includes(JSON.stringify(body, null, 2))) &&
              answers.some((answer) => text.includes(answer))
            );
          };
          const deadline = Date.now() + 10_000;
          while (!(await shown()) && Date.now() < deadline) await page.waitForTimeout(250);
          if (!(await shown())) missing.push(id);
        }
      }
      expect(missing).toEqual([]);
      await page.close();
    }, 300_000);
  },
);
