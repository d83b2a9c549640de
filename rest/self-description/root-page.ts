// GET / for a browser: the root document as a small HTML page with links to the reference, GraphQL,
// the operations console and the command that mints a key. A client that prefers HTML gets this
// (RFC 9110 negotiation); every other one, `*/*` included, gets the JSON root document.
import Negotiator from 'negotiator';
import type { rootDocument } from './root.ts';

export const KEY_COMMAND = 'npm run keys -- create --account ACCOUNT --plan starter';

/** Whether the Accept header prefers text/html to JSON (JSON wins ties and a missing header). */
export const prefersHtml = (accept: string | undefined) =>
  accept !== undefined &&
  new Negotiator({ headers: { accept } }).mediaType(['application/json', 'text/html']) ===
    'text/html';

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/** `consolePath`: where the operations console lives */
export function rootPage(root: ReturnType<typeof rootDocument>, consolePath: string): string {
  const link = (href: string, label: string, what: string) =>
    `<li><a href="${escapeHtml(href)}">${escapeHtml(label)}</a>: ${escapeHtml(what)}</li>`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escapeHtml(root.name)}</title></head>
<body>
<h1>${escapeHtml(root.name)} <small>${escapeHtml(root.version)}</small></h1>
<p>${escapeHtml(root.description)}</p>
<ul>
${link(root.links.reference, 'API reference', 'every /v1 route, with a console to try it')}
${link(root.links.graphql, 'GraphQL', 'the GraphiQL console over the same data')}
${link(consolePath, 'Operations console', 'the crawler and your scrape requests')}
${link(root.links.docs, 'docs.md', 'the reference in Markdown')}
${link(root.links.llmsTxt, 'llms.txt', 'the brief for agents')}
${link(root.links.openapi, 'openapi.json', 'the OpenAPI 3.1 description')}
${link(root.links.examples, 'Examples', 'workflows as concrete requests')}
${link(root.links.health, 'Health', 'whether the service and its backends answer')}
</ul>
<h2>A key</h2>
<p>${escapeHtml(root.auth)}</p>
<p>A self-hosted server mints one with:</p>
<pre><code>${escapeHtml(KEY_COMMAND)}</code></pre>
</body>
</html>
`;
}
