// A screenshot of a storefront's homepage in headless Chromium, best effort: without a Chromium, or
// when the page cannot be rendered in time, the scrape goes on without one (one logged reason).
// Chromium never opens a connection itself. Every request it makes is intercepted: requests for the
// storefront's own host (or its www. form) are fetched by the egress client, with its address
// checks, overrides, deadline and size cap, and handed back; every other request is aborted. As a
// second wall, JavaScript is off (no WebSocket, WebRTC or worker traffic can start) and Chromium's
// own proxy is a closed local port, so anything that slipped past the interception cannot connect.
import { existsSync } from 'node:fs';
import type { Route } from 'playwright-core';
import type { Egress } from '../../platform/egress/egress.ts';
import type { Logger } from '../../platform/logger.ts';

export interface Screenshot {
  contentType: string;
  image: Buffer;
}

export interface Screenshotter {
  /** the homepage of `domain` as an image, or null (the reason is logged) */
  capture(domain: string, log: Logger): Promise<Screenshot | null>;
}

export interface ScreenshotterOptions {
  /** the Chromium executable; undefined = none configured */
  chromiumPath: string | undefined;
  egress: Egress;
  /** budget for rendering the page (navigation and loading its assets) */
  timeoutMs: number;
}

export const SCREENSHOT_VIEWPORT = { width: 1280, height: 800 };
export const SCREENSHOT_QUALITY = 70;
/** a homepage's own assets fetched at most; the rest are aborted so one page cannot run long */
export const MAX_PAGE_REQUESTS = 60;

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-dev-shm-usage',
  '--no-first-run',
  // nothing reaches the network past the interception: the proxy is a closed port, loopback included
  '--proxy-server=http://127.0.0.1:9',
  '--proxy-bypass-list=<-loopback>',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
];

/** Response headers Chromium gets from an egress response; framing headers describe the original transfer. */
const DROPPED_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'connection',
  'keep-alive',
]);

export function createScreenshotter(options: ScreenshotterOptions): Screenshotter {
  return {
    async capture(domain, log) {
      const reason = unavailableReason(options.chromiumPath);
      if (reason) {
        log.info({ domain, reason }, 'scrape without a screenshot');
        return null;
      }
      try {
        return await render(options, domain);
      } catch (error) {
        log.warn({ domain, reason: (error as Error).message }, 'scrape without a screenshot');
        return null;
      }
    },
  };
}

function unavailableReason(chromiumPath: string | undefined): string | null {
  if (chromiumPath === undefined)
    return 'no Chromium: CHROMIUM_PATH is empty and /usr/bin/chromium is absent';
  if (!existsSync(chromiumPath)) return `no Chromium at CHROMIUM_PATH ${chromiumPath}`;
  return null;
}

async function render(options: ScreenshotterOptions, domain: string): Promise<Screenshot> {
  // loaded on the first screenshot: every process that can run a scrape imports this module, and
  // playwright-core is among the heaviest of the service's dependencies to load
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: options.chromiumPath,
    args: LAUNCH_ARGS,
    timeout: options.timeoutMs,
  });
  try {
    const context = await browser.newContext({
      viewport: SCREENSHOT_VIEWPORT,
      javaScriptEnabled: false,
      serviceWorkers: 'block',
      acceptDownloads: false,
    });
    const page = await context.newPage();
    const allowedHosts = new Set([domain, `www.${domain}`]);
    let requests = 0;
    await page.route('**/*', async (route) => {
      const url = new URL(route.request().url());
      const ownAsset =
        allowedHosts.has(url.hostname) && (url.protocol === 'https:' || url.protocol === 'http:');
      if (!ownAsset || route.request().method() !== 'GET' || ++requests > MAX_PAGE_REQUESTS) {
        await route.abort('blockedbyclient');
        return;
      }
      await fulfilFromEgress(route, options.egress, url);
    });

    const deadline = Date.now() + options.timeoutMs;
    const response = await page.goto(`https://${domain}/`, {
      waitUntil: 'domcontentloaded',
      timeout: options.timeoutMs,
    });
    if (response?.status() !== 200)
      throw new Error(
        `the homepage answered HTTP ${response?.status() ?? 'nothing'} to the browser`,
      );
    // the assets get what is left of the budget; a page still loading is photographed as it is
    await page
      .waitForLoadState('load', { timeout: Math.max(1, deadline - Date.now()) })
      .catch(() => undefined);
    const image = await page.screenshot({
      type: 'jpeg',
      quality: SCREENSHOT_QUALITY,
      timeout: options.timeoutMs,
    });
    return { contentType: 'image/jpeg', image };
  } finally {
    await browser.close();
  }
}

async function fulfilFromEgress(route: Route, egress: Egress, url: URL): Promise<void> {
  try {
    // redirects go back to Chromium, whose next request is intercepted and checked like this one
    const response = await egress.fetch(url, {
      headers: { accept: route.request().headers().accept ?? '*/*' },
    });
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(response.headers)) {
      if (value === undefined || DROPPED_HEADERS.has(name)) continue;
      headers[name] = Array.isArray(value) ? value.join('\n') : value;
    }
    await route.fulfill({ status: response.status, headers, body: response.body });
  } catch {
    // refused by egress, too large, too slow, or the page is gone: the asset is simply missing
    await route.abort('failed').catch(() => undefined);
  }
}
