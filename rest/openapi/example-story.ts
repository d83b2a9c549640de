// The examples that change what others read tell one story on a fresh install, and are sent in its
// order: an alert first (stores that start running Klaviyo); scrape the store the catalog lacks and
// poll it by the id its answer gave (Klaviyo on its storefront matches the alert); bulk-scrape it
// again with a second store; watch it, probe it a second time (sales from two snapshots), read the
// watch; refresh its ads; read and delete the alert; pause, stop and delete the watch last. Every
// other example only reads the seeded catalog. docs.md states this order (decisions.ts) and
// test/rest/response-examples.test.ts records each answer example by following it.

/** operationId and the route it names, in the order of the story */
export const EXAMPLE_STORY = [
  ['createAlert', 'POST /v1/alerts'],
  ['requestScrape', 'POST /v1/scrapes'],
  ['getScrapeRequest', 'GET /v1/scrapes/{id}'],
  ['requestScrapesBulk', 'POST /v1/scrapes/bulk'],
  ['createSignal', 'POST /v1/signals'],
  ['probeSignal', 'POST /v1/signals/{domain}/probe'],
  ['getSignalProbe', 'GET /v1/signals/{domain}/probe'],
  ['listSignals', 'GET /v1/signals'],
  ['getSignal', 'GET /v1/signals/{domain}'],
  ['listInsightInbox', 'GET /v1/signals/insights'],
  ['getSignalStats', 'GET /v1/signals/{domain}/stats'],
  ['getSignalSales', 'GET /v1/signals/{domain}/sales'],
  ['getSignalInventory', 'GET /v1/signals/{domain}/inventory'],
  ['listSignalInsights', 'GET /v1/signals/{domain}/insights'],
  ['listSignalApps', 'GET /v1/signals/{domain}/apps'],
  ['listSignalAppChanges', 'GET /v1/signals/{domain}/apps/changes'],
  ['listSignalProductChanges', 'GET /v1/signals/{domain}/products/changes'],
  ['probeSignalAds', 'POST /v1/signals/{domain}/ads/probe'],
  ['listSignalAds', 'GET /v1/signals/{domain}/ads'],
  ['getSignalAdsOverview', 'GET /v1/signals/{domain}/ads/overview'],
  ['listAlerts', 'GET /v1/alerts'],
  ['listAlertMatches', 'GET /v1/alerts/{id}/matches'],
  ['deleteAlert', 'DELETE /v1/alerts/{id}'],
  ['updateSignal', 'PATCH /v1/signals/{domain}'],
  ['stopSignal', 'POST /v1/signals/{domain}/stop'],
  ['deleteSignal', 'DELETE /v1/signals/{domain}'],
] as const;

/** The story's order in a sentence, for docs.md. */
export const EXAMPLE_STORY_TEXT =
  'The scrape, Signals and alert examples tell one story on a fresh install and work sent as written in its order ' +
  '(each answer example of /docs is the answer recorded so; every other example only reads the seeded catalog): ' +
  `${EXAMPLE_STORY.map(([, route]) => route).join(', ')}. ` +
  'GET /v1/scrapes/{id} takes the id POST /v1/scrapes answered; the alert examples read alert 1, the one POST /v1/alerts made.';
