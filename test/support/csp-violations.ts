// Content-Security-Policy violations a page reported (its securitypolicyviolation events), for the
// browser tests: recorded from before the page's own scripts run, read back per page.
import type { BrowserContext, Page } from 'playwright-core';

export interface CspViolation {
  /** the directive that refused it: script-src-elem for a <script>, script-src-attr for an onclick=, … */
  directive: string;
  /** what was refused: a URL, 'inline' or 'eval' */
  blocked: string;
}

/** the one refusal /docs causes on purpose: zod (inside Scalar) probes whether eval is allowed, then does without */
export const EVAL_PROBE: CspViolation = { directive: 'script-src', blocked: 'eval' };

/** Records every page of `target` (a context or one page) opens from now on. */
export async function recordCspViolations(target: BrowserContext | Page): Promise<void> {
  await target.addInitScript(() => {
    const seen: Array<{ directive: string; blocked: string }> = [];
    (window as unknown as { __cspViolations: typeof seen }).__cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push({ directive: event.effectiveDirective, blocked: event.blockedURI }),
    );
  });
}

export const cspViolations = (page: Page): Promise<CspViolation[]> =>
  page.evaluate(
    () => (window as unknown as { __cspViolations?: CspViolation[] }).__cspViolations ?? [],
  );
