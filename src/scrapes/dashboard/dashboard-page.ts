// GET /dashboard/scrapes: a small internal page listing recent scrape requests, updated live. It
// reads Query.recentScrapes once, then follows Subscription.recentScrapes over SSE (EventSource on
// GET /graphql), so it shows jobs run by any worker on any replica. The page holds no data itself.
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

  const initial = await fetch('/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: '{ recentScrapes(limit: 50) { ' + FIELDS + ' } }' }),
  }).then((r) => r.json());
  for (const scrape of [...(initial.data?.recentScrapes ?? [])].reverse()) show(scrape);

  const live = new EventSource('/graphql?query=' + encodeURIComponent('subscription { recentScrapes { ' + FIELDS + ' } }'));
  live.onopen = () => { connection.textContent = 'live'; document.body.dataset.live = 'true'; };
  live.onerror = () => { connection.textContent = 'reconnecting…'; };
  live.addEventListener('next', (event) => {
    const scrape = JSON.parse(event.data).data?.recentScrapes;
    if (scrape) show(scrape);
  });
</script>
</body>
</html>
`;

export async function registerScrapeDashboard(app: FastifyInstance): Promise<void> {
  app.get(DASHBOARD_PATH, async (_request, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').header('cache-control', 'no-store').send(PAGE),
  );
}
