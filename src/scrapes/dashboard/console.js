// The operations console in the browser. Two GraphQL subscriptions feed it over server-sent
// events: crawlerStatus (the crawler's schedule, queue, recent observations, freshness and workers,
// a fresh snapshot every few seconds) and recentScrapes (every status change of this key's
// account's scrape requests); a query fills the scrape list once, a mutation queues a scrape.
// The API key lives in this page's memory alone: not in sessionStorage or localStorage, which every
// page of this origin can read (GraphiQL, the /docs reference), and not in a cookie, which the API
// never reads. A reload asks for it again. It is sent as a header, never in a URL, which is why the
// event streams are read with fetch() rather than EventSource (no custom headers).
// A refusal (401: no key or a key not accepted; 403: a key without operations:read) is shown and
// waits for the person: it is never retried in a loop. A dropped stream reconnects with backoff.

const SCRAPE_FIELDS =
  'scrapeRequestId domain status force failureReason createdAt updatedAt startedAt finishedAt';
const STATUS_QUERY = `subscription Console($minutes: Int!) { crawlerStatus(recentMinutes: $minutes) {
  at
  stores { scheduled active failing vanished due inFlight }
  candidates { pending queued accepted duplicate rejected }
  queue { task waiting scheduled running failed }
  recent { minutes observations perMinute { minute ok failed } outcomes { outcome trigger count } p50Ms p99Ms }
  freshness { bucket stores }
  workers { id host pid concurrency globalConcurrency startedAt seenAt }
} }`;
const RECENT_MINUTES = 60;

const $ = (id) => document.getElementById(id);
const el = (tag, attributes = {}, ...children) => {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') node.className = value;
    else if (name === 'text') node.textContent = value;
    else node.setAttribute(name, value === true ? '' : String(value));
  }
  node.append(...children);
  return node;
};
/**
 * Text with the commands, headers, scopes and settings it names set as code (the server's refusal
 * messages and the empty states name them): nodes, never HTML. A command breaks only between its
 * words, never inside `--plan`.
 */
const CODE_IN_TEXT =
  /(npm run [^.,;()]+?(?=\s*[.,;()]|$)|Authorization: Bearer <key>|X-Api-Key: <key>|\boperations:read\b|\b[A-Z][A-Z_]+=[a-z]+\b)/;
const prose = (text) =>
  text.split(CODE_IN_TEXT).flatMap((part, index) => {
    if (part === '') return [];
    // split() with a capturing group: the odd parts are the matches
    if (index % 2 === 0) return [document.createTextNode(part)];
    return [
      el(
        'code',
        {},
        ...part
          .split(' ')
          .flatMap((word, i) =>
            i === 0 ? [el('span', { text: word })] : [' ', el('span', { text: word })],
          ),
      ),
    ];
  });
const number = new Intl.NumberFormat('en-US');
const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto', style: 'short' });
const fullDate = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });
const clock = new Intl.DateTimeFormat('en-GB', {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});
const dayAndClock = new Intl.DateTimeFormat('en-GB', {
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
});

/** "12 s ago", "3 min ago", "2 hr ago", "in 5 min" */
function ago(iso, now = Date.now()) {
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return relative.format(seconds, 'second');
  if (abs < 3600) return relative.format(Math.round(seconds / 60), 'minute');
  if (abs < 86400) return relative.format(Math.round(seconds / 3600), 'hour');
  return relative.format(Math.round(seconds / 86400), 'day');
}
/** today's times as 14:03:22, other days as 3 Nov, 14:03 */
function when(iso) {
  const date = new Date(iso);
  return date.toDateString() === new Date().toDateString()
    ? clock.format(date)
    : dayAndClock.format(date);
}
const timeCell = (iso) =>
  iso
    ? el('td', { title: fullDate.format(new Date(iso)), 'data-time': iso, text: when(iso) })
    : el('td', { text: '–' });
const duration = (ms) =>
  ms === null || ms === undefined
    ? '–'
    : ms < 1000
      ? `${ms} ms`
      : ms < 60_000
        ? `${(ms / 1000).toFixed(1)} s`
        : `${Math.round(ms / 60_000)} min`;

// ---- the key ----------------------------------------------------------------------------------

let apiKey = '';
const authHeaders = () => (apiKey ? { authorization: `Bearer ${apiKey}` } : {});

/** What a refusal means for the page: a key is needed (401: none, or not accepted) or the key lacks a scope (403). */
function refusalOf(status, errors) {
  const error = errors?.[0];
  const reason = error?.extensions?.details?.reason;
  if (status === 403 || reason === 'scope')
    return { kind: 'scope', message: error?.message ?? 'This key may not read this.' };
  if (status === 401 || error?.extensions?.code === 'unauthorized')
    return { kind: 'key', message: error?.message ?? 'This server needs an API key.' };
  return null;
}

const SCOPE_HINT =
  'The crawler panels need a key carrying the operations:read scope; the scrape list works with any key.';
function askForKey(reason) {
  $('key-reason').replaceChildren(...prose(`${reason} ${SCOPE_HINT}`));
  $('key').value = apiKey;
  if (!$('key-dialog').open) $('key-dialog').showModal();
  $('key').focus();
}

$('key-button').addEventListener('click', () =>
  askForKey(
    apiKey
      ? 'The key this tab uses. Change it, or forget it.'
      : 'Type an API key to use with this console.',
  ),
);
$('key-form').addEventListener('submit', () => {
  apiKey = $('key').value.trim();
  restart();
});
$('key-clear').addEventListener('click', () => {
  apiKey = '';
  $('key-dialog').close();
  restart();
});

// ---- GraphQL over HTTP and server-sent events ---------------------------------------------------

async function graphql(query, variables = {}) {
  const response = await fetch('/graphql', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
      ...authHeaders(),
    },
    body: JSON.stringify({ query, variables }),
  });
  const body = await response
    .json()
    .catch(() => ({ errors: [{ message: `HTTP ${response.status}` }] }));
  return { status: response.status, ...body };
}

/**
 * Follows a subscription until `stop` is called. `onNext` gets each payload's data; a refusal goes
 * to `onRefused` and ends the stream (no retry); a drop reconnects after 1, 2, 4 … 30 s.
 */
function follow(query, variables, { onNext, onRefused, onState }) {
  let stopped = false;
  const controller = new AbortController();
  (async () => {
    let backoff = 1000;
    while (!stopped) {
      try {
        const url = `/graphql?query=${encodeURIComponent(query)}&variables=${encodeURIComponent(JSON.stringify(variables))}`;
        const response = await fetch(url, {
          headers: { accept: 'text/event-stream', ...authHeaders() },
          signal: controller.signal,
        });
        if (!response.ok) {
          const body = await response.json().catch(() => ({}));
          const refusal = refusalOf(response.status, body.errors);
          if (refusal) return onRefused(refusal);
          throw new Error(`HTTP ${response.status}`);
        }
        onState('live');
        backoff = 1000;
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += value;
          let end;
          while ((end = buffer.indexOf('\n\n')) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const event = /^event: (.*)$/m.exec(frame)?.[1];
            const data = frame
              .split('\n')
              .filter((line) => line.startsWith('data:'))
              .map((line) => line.slice(5).trim())
              .join('\n');
            if (event !== 'next' || !data) continue;
            const payload = JSON.parse(data);
            const refusal = payload.errors ? refusalOf(0, payload.errors) : null;
            if (refusal) {
              controller.abort();
              return onRefused(refusal);
            }
            if (payload.data) onNext(payload.data);
          }
        }
      } catch (error) {
        if (stopped) return;
        onState('reconnecting', error.message);
      }
      if (stopped) return;
      onState('reconnecting');
      await new Promise((resolve) => setTimeout(resolve, backoff));
      backoff = Math.min(30_000, backoff * 2);
    }
  })();
  return () => {
    stopped = true;
    controller.abort();
  };
}

// ---- connection state ---------------------------------------------------------------------------

const streams = { status: 'connecting', scrapes: 'connecting' };
function showConnection() {
  const states = Object.values(streams);
  const pill = $('connection');
  const state = states.includes('needs-key')
    ? 'needs-key'
    : states.every((s) => s === 'live' || s === 'scoped')
      ? 'live'
      : states.includes('reconnecting')
        ? 'reconnecting'
        : 'connecting';
  pill.dataset.state = state;
  pill.textContent = {
    live: 'Live',
    reconnecting: 'Reconnecting…',
    'needs-key': 'Key needed',
    connecting: 'Connecting…',
  }[state];
  document.body.dataset.live = String(state === 'live');
}
function setStream(name, state) {
  streams[name] = state;
  showConnection();
}
function notice(text, kind = 'info') {
  const box = $('notice');
  box.hidden = !text;
  box.textContent = text ?? '';
  box.dataset.kind = kind;
}

// ---- crawler status -----------------------------------------------------------------------------

const CRAWLER_PANELS = [
  'throughput-panel',
  'freshness-panel',
  'queue-panel',
  'outcomes-panel',
  'workers-panel',
];
function lockCrawlerPanels(text) {
  for (const id of CRAWLER_PANELS) {
    $(id).dataset.locked = String(Boolean(text));
    $(id).dataset.lockedText = text ?? '';
  }
}

let lastStatusAt = null;
function renderStatus(status) {
  lastStatusAt = status.at;
  const { recent, stores, queue } = status;
  const now = new Date(status.at).getTime();
  const lastFive = recent.perMinute.filter((m) => now - new Date(m.minute).getTime() < 5 * 60_000);
  const perMinute = lastFive.reduce((sum, m) => sum + m.ok + m.failed, 0) / 5;
  $('kpi-rate').textContent =
    perMinute >= 10 || perMinute === 0
      ? number.format(Math.round(perMinute))
      : perMinute.toFixed(1);
  const ok = recent.perMinute.reduce((sum, m) => sum + m.ok, 0);
  $('kpi-success').textContent =
    recent.observations > 0 ? `${((ok / recent.observations) * 100).toFixed(1)} %` : '–';
  $('kpi-success-note').textContent =
    `${number.format(recent.observations)} observations, last ${recent.minutes === 60 ? 'hour' : `${recent.minutes} min`}`;
  $('kpi-duration').textContent =
    recent.p50Ms === null ? '–' : `${duration(recent.p50Ms)} · ${duration(recent.p99Ms)}`;
  const waiting = queue.reduce((sum, q) => sum + q.waiting, 0);
  const running = queue.reduce((sum, q) => sum + q.running, 0);
  $('kpi-queue').textContent = `${number.format(waiting)} · ${number.format(running)}`;
  $('kpi-stores').textContent = number.format(stores.scheduled);
  $('kpi-stores-note').textContent =
    `${number.format(stores.active)} active · ${number.format(stores.failing)} failing · ${number.format(stores.vanished)} vanished`;
  renderThroughput(recent, now);
  renderFreshness(status.freshness);
  renderQueue(queue, status.candidates, stores);
  renderOutcomes(recent);
  renderWorkers(status.workers, now);
  $('updated').textContent = `updated ${clock.format(new Date(status.at))}`;
}

function renderThroughput(recent, now) {
  const box = $('throughput');
  const byMinute = new Map(recent.perMinute.map((m) => [new Date(m.minute).getTime(), m]));
  const end = Math.floor(now / 60_000) * 60_000;
  const minutes = Array.from(
    { length: recent.minutes },
    (_, i) => end - (recent.minutes - 1 - i) * 60_000,
  );
  if (recent.observations === 0) {
    box.replaceChildren(
      el('p', {
        class: 'empty',
        text: `No observations in the last ${recent.minutes} minutes. Stores come due on their schedule; a queued scrape shows here too.`,
      }),
    );
    return;
  }
  const max = Math.max(
    1,
    ...minutes.map((t) => (byMinute.get(t)?.ok ?? 0) + (byMinute.get(t)?.failed ?? 0)),
  );
  const width = 600;
  const height = 180;
  const left = 34;
  const bottom = 20;
  const slot = (width - left) / minutes.length;
  const scale = (height - bottom - 8) / max;
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', `0 0 ${width} ${height}`);
  svg.setAttribute('preserveAspectRatio', 'none');
  svg.setAttribute('role', 'img');
  svg.setAttribute(
    'aria-label',
    `Observations per minute over the last ${recent.minutes} minutes, at most ${max}`,
  );
  const add = (tag, attributes, text) => {
    const node = document.createElementNS(ns, tag);
    for (const [k, v] of Object.entries(attributes)) node.setAttribute(k, String(v));
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  for (const fraction of [0, 0.5, 1]) {
    const y = height - bottom - fraction * max * scale;
    add('line', { x1: left, x2: width, y1: y, y2: y, class: 'gridline' });
    add(
      'text',
      { x: left - 6, y: y + 3, 'text-anchor': 'end', class: 'axis' },
      number.format(Math.round(fraction * max)),
    );
  }
  minutes.forEach((t, i) => {
    const m = byMinute.get(t);
    const x = left + i * slot + 1;
    const w = Math.max(1, slot - 2);
    let y = height - bottom;
    for (const [kind, value] of [
      ['ok', m?.ok ?? 0],
      ['failed', m?.failed ?? 0],
    ]) {
      if (!value) continue;
      const h = value * scale;
      y -= h;
      const bar = add('rect', { x, y, width: w, height: h, class: `bar ${kind}` });
      const title = document.createElementNS(ns, 'title');
      title.textContent = `${clock.format(new Date(t))}: ${m.ok} read, ${m.failed} failed`;
      bar.append(title);
    }
    const last = i === minutes.length - 1;
    if (i % 10 === 0 || last)
      add(
        'text',
        {
          x: last ? width : x + w / 2,
          y: height - 5,
          'text-anchor': last ? 'end' : 'middle',
          class: 'axis',
        },
        clock.format(new Date(t)).slice(0, 5),
      );
  });
  box.replaceChildren(svg);
}

function hbars(rows, { total, className } = {}) {
  const sum = total ?? rows.reduce((s, r) => s + r.value, 0);
  const max = Math.max(1, ...rows.map((r) => r.value));
  return el(
    'div',
    { class: 'hbars' },
    ...rows.map((r) =>
      el(
        'div',
        { class: 'hbar', 'data-label': r.label },
        el('span', { text: r.label, title: r.title }),
        el(
          'span',
          { class: 'track' },
          el('span', {
            class: `fill ${r.className ?? className ?? ''}`,
            style: `width:${((r.value / max) * 100).toFixed(1)}%`,
          }),
        ),
        el('span', {
          class: 'count',
          text: `${number.format(r.value)}${sum > 0 ? ` · ${Math.round((r.value / sum) * 100)} %` : ''}`,
        }),
      ),
    ),
  );
}

function renderFreshness(buckets) {
  const total = buckets.reduce((s, b) => s + b.stores, 0);
  $('freshness').replaceChildren(
    total === 0
      ? el(
          'p',
          { class: 'empty' },
          ...prose(
            "No stores on the crawler's schedule yet. Import domains with npm run catalog -- import FILE, or queue a scrape below.",
          ),
        )
      : hbars(
          buckets.map((b) => ({
            label: b.bucket,
            value: b.stores,
            className:
              b.bucket === 'never' || b.bucket === 'over 7 days'
                ? 'failed'
                : b.bucket === 'under 1 hour'
                  ? 'ok'
                  : '',
          })),
        ),
  );
}

function renderQueue(queue, candidates, stores) {
  const rows = queue.map((q) =>
    el(
      'tr',
      { 'data-task': q.task },
      el('td', { text: q.task }),
      ...[q.waiting, q.scheduled, q.running, q.failed].map((n) =>
        el('td', { class: 'num', text: number.format(n) }),
      ),
    ),
  );
  const table = el(
    'table',
    { class: 'table' },
    el(
      'thead',
      {},
      el(
        'tr',
        {},
        el('th', { text: 'Kind of job' }),
        ...['waiting', 'scheduled later', 'running', 'failed'].map((h) =>
          el('th', { class: 'num', text: h }),
        ),
      ),
    ),
    el('tbody', {}, ...rows),
  );
  const summary = el('p', {
    class: 'muted',
    text: `${number.format(stores.due)} stores due and not yet queued · ${number.format(stores.inFlight)} observations in flight · discovery: ${number.format(candidates.pending)} pending, ${number.format(candidates.queued)} being validated, ${number.format(candidates.accepted)} accepted, ${number.format(candidates.rejected)} rejected, ${number.format(candidates.duplicate)} duplicates`,
  });
  $('queue').replaceChildren(
    queue.length === 0
      ? el('p', { class: 'empty', text: 'The queue is empty: no job waits or runs.' })
      : table,
    summary,
  );
}

function renderOutcomes(recent) {
  $('outcomes-window').textContent =
    `last ${recent.minutes === 60 ? 'hour' : `${recent.minutes} min`}`;
  $('outcomes').replaceChildren(
    recent.outcomes.length === 0
      ? el('p', { class: 'empty', text: 'Nothing observed in this window.' })
      : hbars(
          recent.outcomes.map((o) => ({
            label: `${o.outcome === 'ok' ? 'read' : o.outcome.replace(/_/g, ' ')} · ${o.trigger}`,
            title: `${o.outcome} (${o.trigger})`,
            value: o.count,
            className: o.outcome === 'ok' ? 'ok' : 'failed',
          })),
          { total: recent.observations },
        ),
  );
}

function renderWorkers(workers, now) {
  if (workers.length === 0) {
    $('workers').replaceChildren(
      el(
        'p',
        { class: 'empty' },
        ...prose(
          'No crawler worker has reported. Start one with npm run worker (the gateway runs one in-process unless WORKER_IN_PROCESS=false).',
        ),
      ),
    );
    return;
  }
  $('workers').replaceChildren(
    el(
      'table',
      { class: 'table' },
      el(
        'thead',
        {},
        el(
          'tr',
          {},
          el('th', { text: 'Worker' }),
          el('th', { text: 'Host · pid' }),
          el('th', { class: 'num', text: 'Concurrency' }),
          el('th', { class: 'num', text: 'Global concurrency' }),
          el('th', { text: 'Started' }),
          el('th', { text: 'Last seen' }),
        ),
      ),
      el(
        'tbody',
        {},
        ...workers.map((w) =>
          el(
            'tr',
            {
              'data-worker': w.id,
              'data-stale': String(now - new Date(w.seenAt).getTime() > 60_000),
            },
            el('td', { text: w.id }),
            el('td', { text: `${w.host} · ${w.pid}` }),
            el('td', { class: 'num', text: w.concurrency }),
            el('td', { class: 'num', text: w.globalConcurrency }),
            timeCell(w.startedAt),
            el('td', { title: fullDate.format(new Date(w.seenAt)), text: ago(w.seenAt, now) }),
          ),
        ),
      ),
    ),
  );
}

// ---- scrapes ------------------------------------------------------------------------------------

const scrapes = new Map();
function showScrape(scrape) {
  // rows are keyed by the request's UUID, the id REST answers (GraphQL's id is the global id)
  const id = scrape.scrapeRequestId;
  const known = scrapes.get(id);
  if (known && known.updatedAt > scrape.updatedAt) return;
  scrapes.set(id, scrape);
  let row = document.querySelector(`tr[data-id="${id}"]`);
  if (!row) {
    row = el('tr', { 'data-id': id });
    $('scrapes').prepend(row);
  }
  // GraphQL spells the status in upper case; the page shows and styles the lower-case word
  const status = scrape.status.toLowerCase();
  row.dataset.status = status;
  const took =
    scrape.finishedAt && scrape.startedAt
      ? duration(new Date(scrape.finishedAt) - new Date(scrape.startedAt))
      : scrape.finishedAt
        ? duration(new Date(scrape.finishedAt) - new Date(scrape.createdAt))
        : '–';
  row.replaceChildren(
    el('td', { class: 'domain', text: scrape.domain }),
    el(
      'td',
      {},
      el('span', {
        class: 'status',
        'data-status': status,
        text: status + (scrape.force ? ' · refresh' : ''),
      }),
    ),
    timeCell(scrape.createdAt),
    timeCell(scrape.updatedAt),
    el('td', { class: 'num', text: took }),
    el('td', { class: 'reason', text: scrape.failureReason ?? '' }),
  );
}

$('scrape-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const result = $('scrape-result');
  const domain = $('scrape-domain').value.trim();
  const force = $('scrape-force').checked;
  const button = event.submitter ?? $('scrape-form').querySelector('button');
  button.disabled = true;
  result.dataset.kind = '';
  result.textContent = 'Queueing…';
  try {
    const answer = await graphql(
      `mutation Queue($domain: String!, $force: Boolean) { requestScrape(domain: $domain, force: $force) { outcome domain scrape { ${SCRAPE_FIELDS} } } }`,
      { domain, force },
    );
    const refusal = refusalOf(answer.status, answer.errors);
    if (refusal?.kind === 'key') {
      result.textContent = '';
      return askForKey(refusal.message);
    }
    if (answer.errors) {
      result.dataset.kind = 'error';
      result.textContent = answer.errors[0].message;
      return;
    }
    const order = answer.data.requestScrape;
    if (order.outcome === 'QUEUED') {
      showScrape(order.scrape);
      result.dataset.kind = 'ok';
      result.textContent = `Queued ${order.domain}.`;
      $('scrape-domain').value = '';
    } else {
      result.dataset.kind = 'error';
      result.textContent = `${order.domain} is already in the catalog: tick "refresh" to scrape it again.`;
    }
  } catch (error) {
    result.dataset.kind = 'error';
    result.textContent = `Could not reach the server (${error.message}).`;
  } finally {
    button.disabled = false;
  }
});

// ---- start and restart --------------------------------------------------------------------------

let stops = [];
async function start() {
  notice(null);
  lockCrawlerPanels(null);
  setStream('status', 'connecting');
  setStream('scrapes', 'connecting');
  const refused = (stream) => (refusal) => {
    if (refusal.kind === 'key') {
      setStream(stream, 'needs-key');
      lockCrawlerPanels('Waiting for an API key (the API key button, top right).');
      notice(
        apiKey
          ? 'The server did not accept this key. Type another with the API key button.'
          : 'This server needs an API key: keys exist, so open-dev mode is over. Use the API key button.',
        'error',
      );
      askForKey(refusal.message);
    } else {
      setStream(stream, 'scoped');
      if (stream === 'status')
        lockCrawlerPanels(
          `This key may not read the crawler's state: it needs the operations:read scope. (${refusal.message})`,
        );
      else notice(refusal.message, 'error');
    }
  };
  const onState = (stream) => (state, detail) => {
    setStream(stream, state);
    if (state === 'reconnecting' && detail)
      $('updated').textContent = `connection lost (${detail})`;
  };

  const initial = await graphql(
    `query Scrapes { recentScrapes(limit: 50) { ${SCRAPE_FIELDS} } }`,
  ).catch((error) => ({ status: 0, errors: [{ message: error.message }] }));
  const refusal = refusalOf(initial.status, initial.errors);
  if (refusal) {
    // a refused list is refused for both streams: wait for a key instead of opening them
    refused('scrapes')(refusal);
    if (refusal.kind === 'key') setStream('status', 'needs-key');
    else refused('status')(refusal);
    return;
  }
  for (const scrape of [...(initial.data?.recentScrapes ?? [])].reverse()) showScrape(scrape);

  stops = [
    follow(
      `subscription { recentScrapes { ${SCRAPE_FIELDS} } }`,
      {},
      {
        onNext: (data) => data.recentScrapes && showScrape(data.recentScrapes),
        onRefused: refused('scrapes'),
        onState: onState('scrapes'),
      },
    ),
    follow(
      STATUS_QUERY,
      { minutes: RECENT_MINUTES },
      {
        onNext: (data) => data.crawlerStatus && renderStatus(data.crawlerStatus),
        onRefused: refused('status'),
        onState: onState('status'),
      },
    ),
  ];
}

function restart() {
  for (const stop of stops) stop();
  stops = [];
  scrapes.clear();
  $('scrapes').replaceChildren();
  void start();
}

// relative times stay true between snapshots
setInterval(() => {
  for (const cell of document.querySelectorAll('td[data-time]'))
    cell.textContent = when(cell.dataset.time);
  if (lastStatusAt && Date.now() - new Date(lastStatusAt).getTime() > 30_000)
    $('updated').textContent = `last update ${ago(lastStatusAt)}`;
}, 5_000);

void start();
