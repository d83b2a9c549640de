// The Content-Security-Policy of the HTML pages (GraphiQL, the /docs reference, the operations
// console): a script runs only when it arrived in the page with the answer's nonce, a fresh random
// value per answer, so markup slipped into a page (a <script> tag, an onclick= attribute) never
// runs. 'strict-dynamic' lets a nonced script load what it needs (Scalar's and GraphiQL's own
// chunks), and worker-src names where GraphiQL's editor workers come from (blob: URLs it builds).
// A page asks for a nonce (cspNonce) when it renders; an HTML answer that asked for none (GET / in
// a browser) runs no script at all.
import { randomBytes } from 'node:crypto';
import type { FastifyReply } from 'fastify';

const nonces = new WeakMap<FastifyReply, string>();

/** This answer's nonce, drawn on first use: 128 random bits, base64. */
export function cspNonce(reply: FastifyReply): string {
  let nonce = nonces.get(reply);
  if (nonce === undefined) {
    nonce = randomBytes(16).toString('base64');
    nonces.set(reply, nonce);
  }
  return nonce;
}

/** The policy of an HTML answer: its scripts by nonce when the page drew one, else none. */
export function htmlPolicy(reply: FastifyReply): string {
  const nonce = nonces.get(reply);
  const scripts =
    nonce === undefined
      ? "script-src 'none'"
      : `script-src 'nonce-${nonce}' 'strict-dynamic'; worker-src 'self' blob:`;
  return `${scripts}; object-src 'none'; base-uri 'none'; frame-ancestors 'none'`;
}

const SCRIPT_OPEN = /<script\b/gi;
const SCRIPT_CLOSE = /<\/script/gi;

/**
 * A page of ours (never one holding a caller's text) with a nonce attribute in each <script> tag:
 * scanned once as an HTML parser reads it (a script's content ends at the first </script, so a
 * "<script" inside a script is text), filled with each answer's nonce.
 */
export function withScriptNonces(html: string): (nonce: string) => string {
  const segments: string[] = [];
  let start = 0;
  let scanFrom = 0;
  for (;;) {
    SCRIPT_OPEN.lastIndex = scanFrom;
    const open = SCRIPT_OPEN.exec(html);
    if (!open) break;
    const slot = open.index + open[0].length;
    segments.push(html.slice(start, slot));
    start = slot;
    SCRIPT_CLOSE.lastIndex = slot;
    const close = SCRIPT_CLOSE.exec(html);
    if (!close) break;
    scanFrom = close.index + close[0].length;
  }
  segments.push(html.slice(start));
  return (nonce) => segments.join(` nonce="${nonce}"`);
}
