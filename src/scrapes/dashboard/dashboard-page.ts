// GET /dashboard/scrapes: a small internal page listing the account's recent scrape requests,
// updated live. It reads Query.recentScrapes once, then follows Subscription.recentScrapes over SSE
// (GET /graphql), so it shows jobs run by any worker on any replica. The page holds no data itself:
// the API key typed into it is kept in the tab's sessionStorage and sent as a header (never in a
// URL), which is why the feed is read with fetch() rather than EventSource (no custom headers).
import type { FastifyInstance } from 'fastify';

export const DASHBOARD_PATH = '/dashboard/scrapes';

const FIELDS = 'id domain status force failureReason createdAt updatedAt finishedAt';

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Scrapes</title>
<style>
  body { font: 14px system-ui, sans-serif; margin: 2rem; color: #222; }
  table { border-collapse: collapse; width: 100%; }
  th, td { text-align: left; padding: .35rem .6rem; border-bottom: 1px solid #ddd; }
  td.status { font-weight: 600; }
  tr[data-status="done"] td.status { color: #1a7f37; }
  tr[data-status="failed"] td.status { color: #cf222e; }
  #connection { color: #666; }
</style>
</head>
<body>
<h1>Scrape requests</h1>
<form id="key-form"><label>API key <input id="key" type="password" autocomplete="off" placeholder="sk_live_… (not needed in open-dev mode)" size="44"></label> <button>Use key</button></form>
<p id="connection">connecting…</p>
<table>
  <thead><tr><th>Domain</th><th>Status</th><th>Forced</th><th>Requested</th><th>Updated</th><th>Failure reason</th></tr></thead>
  <tbody id="scrapes"></tbody>
</table>
<script type="module">
  const FIELDS = ${JSON.stringify(FIELDS)};
  const rows = new Map();
  const body = document.getElementById('scrapes');
  const connection = document.getElementById('connection');
  const time = (iso) => (iso ? new Date(iso).toLocaleTimeString() : '');

  function show(scrape) {
    const known = rows.get(scrape.id);
    if (known && known.updatedAt > scrape.updatedAt) return;
    rows.set(scrape.id, scrape);
    let row = document.querySelector('tr[data-id="' + scrape.id + '"]');
    if (!row) {
      row = document.createElement('tr');
      row.dataset.id = scrape.id;
      body.prepend(row);
    }
    row.dataset.status = scrape.status;
    row.replaceChildren(...[scrape.domain, scrape.status, scrape.force ? 'yes' : '', time(scrape.createdAt), time(scrape.updatedAt), scrape.failureReason ?? '']
      .map((text, index) => {
        const cell = document.createElement('td');
        cell.textContent = text;
        if (index === 1) cell.className = 'status';
        return cell;
      }));
  }

  const keyInput = document.getElementById('key');
  keyInput.value = sessionStorage.getItem('apiKey') ?? '';
  document.getElementById('key-form').addEventListener('submit', (event) => {
    event.preventDefault();
    sessionStorage.setItem('apiKey', keyInput.value.trim());
    location.reload();
  });
  const auth = () => (keyInput.value.trim() ? { authorization: 'Bearer ' + keyInput.value.trim() } : {});

  const initial = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth() },
    body: JSON.stringify({ query: '{ recentScrapes(limit: 50) { ' + FIELDS + ' } }' }),
  }).then((r) => r.json());
  if (initial.errors) connection.textContent = initial.errors[0].message;
  for (const scrape of [...(initial.data?.recentScrapes ?? [])].reverse()) show(scrape);

  // Server-sent events read with fetch, so the key travels in a header; reconnects after a drop.
  async function follow() {
    const url = '/graphql?query=' + encodeURIComponent('subscription { recentScrapes { ' + FIELDS + ' } }');
    for (;;) {
      try {
        const response = await fetch(url, { headers: { accept: 'text/event-stream', ...auth() } });
        if (!response.ok) throw new Error('HTTP ' + response.status);
        connection.textContent = 'live';
        document.body.dataset.live = 'true';
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\\n\\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(frame)?.[1];
            const data = frame.split('\\n').filter((line) => line.startsWith('data:')).map((line) => line.slice(5).trim()).join('\\n');
            if (event === 'next' && data) {
              const scrape = JSON.parse(data).data?.recentScrapes;
              if (scrape) show(scrape);
            }
          }
        }
      } catch (error) {
        connection.textContent = 'reconnecting… (' + error.message + ')';
      }
      document.body.dataset.live = 'false';
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }
  follow();
</script>
</body>
</html>
`;

export async function registerScrapeDashboard(app: FastifyInstance): Promise<void> {
  app.get(DASHBOARD_PATH, { config: { servesNoData: true } }, async (_request, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(PAGE),
  );
}
