// The storefront farm: one HTTP server answering for every store of the farm, told apart by the
// Host header (s<index>.<domain>; EGRESS_OVERRIDES=*.<domain>=http://127.0.0.1:<port> sends them
// here). Routes are those a storefront observation reads: /, /meta.json, /products.json?page=,
// /collections/best-sellers/products.json, /collections/all/products.json?sort_by=best-selling,
// /products/<handle>.js and /robots.txt. Each store answers by its behaviour (farm-store.ts).
//
// It counts the requests it is answering at once per host (Host header): maxInFlightPerHost is the
// most ever seen for one host, which a crawler reading one request at a time per host keeps at 1.
//
// Control routes answer only on the farm's own address (Host 127.0.0.1 or localhost), never on a
// store's name:
//   GET  /__farm            the farm's size, domain, epoch, request counts and maxInFlightPerHost
//   DELETE /__farm/in-flight  starts maxInFlightPerHost again from 0 (a bench run's own figure)
//   POST /__farm/epoch      the next epoch for every store (about CHANGE_RATE of them change)
//   POST /__farm/epoch?host=H  the next epoch for one store only
//   GET  /__farm/visits     homepage requests per host since start (or since DELETE /__farm/visits)
//   GET  /__farm/stores/<host>  what the farm holds of a store now (behaviour, apps, product count)
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { LRUCache } from 'lru-cache';
import {
  behaviourAt,
  farmStore,
  parseFarmHost,
  type FarmOptions,
  type FarmProduct,
  type FarmStore,
} from './farm-store.ts';
import {
  homepage,
  metaJson,
  plainWebsite,
  productJs,
  productsJson,
  robotsTxt,
  unavailablePage,
} from './shopify-payloads.ts';

export interface StorefrontFarm {
  port: number;
  options: FarmOptions;
  /** EGRESS_OVERRIDES sending every farm host here */
  overrides: string;
  /** the listed stores' hosts, s0 … s<stores-1> */
  hosts(): string[];
  epoch(): number;
  advance(host?: string): void;
  /** the store as the farm serves it now */
  store(host: string): FarmStore | null;
  products(host: string): FarmProduct[];
  /** homepage requests per host */
  readonly visits: ReadonlyMap<string, number>;
  readonly stats: {
    requests: number;
    byStatus: Record<string, number>;
    maxInFlightPerHost: number;
    maxInFlightHost: string | null;
  };
  close(): Promise<void>;
}

export interface FarmServerOptions extends Partial<FarmOptions> {
  port?: number;
  host?: string;
}

const PAGE_LIMIT = 250;

export async function startStorefrontFarm(
  serverOptions: FarmServerOptions = {},
): Promise<StorefrontFarm> {
  const options: FarmOptions = {
    domain: serverOptions.domain ?? 'farm.test',
    stores: serverOptions.stores ?? 10_000,
    seed: serverOptions.seed ?? 1,
  };
  let globalEpoch = 0;
  const ownEpochs = new Map<number, number>();
  const visits = new Map<string, number>();
  const productsRequests = new Map<string, number>();
  const stats = {
    requests: 0,
    byStatus: {} as Record<string, number>,
    maxInFlightPerHost: 0,
    maxInFlightHost: null as string | null,
  };
  const inFlight = new Map<string, number>();
  const stores = new LRUCache<string, { store: FarmStore; products?: FarmProduct[] }>({
    max: 4_000,
  });

  const epochOf = (index: number) => globalEpoch + (ownEpochs.get(index) ?? 0);
  const entryOf = (index: number) => {
    const epoch = epochOf(index);
    const key = `${index}:${epoch}`;
    let entry = stores.get(key);
    if (!entry) {
      entry = { store: farmStore(options, index, epoch) };
      stores.set(key, entry);
    }
    return entry;
  };
  const productsOf = (entry: { store: FarmStore; products?: FarmProduct[] }) =>
    (entry.products ??= entry.store.products());
  const storeOfHost = (host: string) => {
    const parsed = parseFarmHost(options, host);
    return parsed ? { parsed, entry: entryOf(parsed.index) } : null;
  };

  const server = http.createServer((req, res) => {
    stats.requests++;
    res.on('finish', () => {
      stats.byStatus[res.statusCode] = (stats.byStatus[res.statusCode] ?? 0) + 1;
    });
    const host = (req.headers.host ?? '').replace(/:\d+$/, '').toLowerCase();
    const url = new URL(req.url ?? '/', 'http://farm');
    if (host === '127.0.0.1' || host === 'localhost') return control(req, res, url);
    // answering until the response is done or its connection is gone
    const now = (inFlight.get(host) ?? 0) + 1;
    inFlight.set(host, now);
    if (now > stats.maxInFlightPerHost) {
      stats.maxInFlightPerHost = now;
      stats.maxInFlightHost = host;
    }
    res.once('close', () => {
      const left = inFlight.get(host)! - 1;
      if (left === 0) inFlight.delete(host);
      else inFlight.set(host, left);
    });
    const found = storeOfHost(host);
    if (!found) return send(res, 404, 'text/plain', 'no such store in the farm');
    const { parsed, entry } = found;
    const store = entry.store;
    if (url.pathname === '/') visits.set(host, (visits.get(host) ?? 0) + 1);
    // a moved store's new host serves it under its new name
    const served = parsed.movedTo ? { ...store, host } : store;
    const answer = () => storefront(req, res, url, host, served, parsed, () => productsOf(entry));
    if (store.behaviour === 'slow' && !parsed.movedTo)
      setTimeout(answer, 200 + ((store.index * 7919 + url.pathname.length * 131) % 1300));
    else answer();
  });

  function storefront(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    host: string,
    store: FarmStore,
    { movedTo, www }: { movedTo: boolean; www: boolean },
    products: () => FarmProduct[],
  ): void {
    const path = url.pathname;
    const behaviour = movedTo ? 'ordinary' : behaviourAt(store.behaviour, store.epoch);
    if (behaviour === 'www-only' && !www) return void req.socket.destroy();
    if (behaviour === 'robots-busy' && path === '/robots.txt')
      return send(res, 429, 'text/plain', 'Too Many Requests', { 'retry-after': '120' });
    if (behaviour === 'moved') {
      res
        .writeHead(301, {
          location: `https://m${store.index}.${options.domain}${path}${url.search}`,
        })
        .end();
      return;
    }
    if (path === '/robots.txt') return send(res, 200, 'text/plain', robotsTxt(store));
    if (behaviour === 'vanishing' && store.epoch > 0)
      return send(res, 404, 'text/html; charset=utf-8', unavailablePage(store));
    if (behaviour === 'not-shopify')
      return path === '/'
        ? send(res, 200, 'text/html; charset=utf-8', plainWebsite(store))
        : send(res, 404, 'text/html', '<h1>Not found</h1>');
    if (path === '/') {
      if (behaviour === 'reset') return void req.socket.destroy();
      if (behaviour === 'failing-homepage')
        return send(res, 503, 'text/html', '<h1>Service Unavailable</h1>');
      const featured = [...products()].sort((a, b) => a.salesRank - b.salesRank).slice(0, 12);
      return send(res, 200, 'text/html; charset=utf-8', homepage(store, featured));
    }
    if (path === '/meta.json')
      return send(res, 200, 'application/json', metaJson(store, products().length));
    const isProducts =
      path === '/products.json' ||
      path === '/collections/all/products.json' ||
      path === '/collections/best-sellers/products.json';
    if (isProducts) {
      if (behaviour === 'failing-products')
        return send(res, 502, 'text/html', '<h1>502 Bad Gateway</h1>');
      if (behaviour === 'throttled')
        return send(res, 429, 'text/plain', 'Too Many Requests', { 'retry-after': '120' });
      if (behaviour === 'rate-limited') {
        const seen = (productsRequests.get(host) ?? 0) + 1;
        productsRequests.set(host, seen);
        if (seen % 2 === 1)
          return send(res, 429, 'text/plain', 'Too Many Requests', { 'retry-after': '1' });
      }
      const limit = Math.min(PAGE_LIMIT, Math.max(1, Number(url.searchParams.get('limit')) || 30));
      const page = Math.max(1, Number(url.searchParams.get('page')) || 1);
      let list = products();
      if (path === '/collections/best-sellers/products.json') {
        if (!store.hasBestSellers)
          return send(res, 404, 'application/json', '{"errors":"Not Found"}');
        list = [...list].sort((a, b) => a.salesRank - b.salesRank);
      } else if (
        path === '/collections/all/products.json' &&
        url.searchParams.get('sort_by') === 'best-selling'
      ) {
        list = [...list].sort((a, b) => a.salesRank - b.salesRank);
      }
      return send(
        res,
        200,
        'application/json; charset=utf-8',
        productsJson(store, list.slice((page - 1) * limit, page * limit)),
      );
    }
    const productJsPath = /^\/products\/([^/]+)\.js$/.exec(path);
    if (productJsPath) {
      const product = products().find((p) => p.handle === decodeURIComponent(productJsPath[1]!));
      return product
        ? send(res, 200, 'application/javascript; charset=utf-8', productJs(store, product))
        : send(res, 404, 'application/json', '{"errors":"Not Found"}');
    }
    return send(res, 404, 'text/html', '<h1>404 Page Not Found</h1>');
  }

  function control(req: http.IncomingMessage, res: http.ServerResponse, url: URL): void {
    const json = (status: number, body: unknown) =>
      send(res, status, 'application/json', JSON.stringify(body));
    if (url.pathname === '/__farm' && req.method === 'GET')
      return json(200, { ...options, epoch: globalEpoch, ...stats });
    if (url.pathname === '/__farm/epoch' && req.method === 'POST') {
      const host = url.searchParams.get('host');
      if (!host) {
        globalEpoch++;
        return json(200, { epoch: globalEpoch });
      }
      const parsed = parseFarmHost(options, host);
      if (!parsed) return json(404, { error: `${host} is not a farm store` });
      ownEpochs.set(parsed.index, (ownEpochs.get(parsed.index) ?? 0) + 1);
      return json(200, { host, epoch: epochOf(parsed.index) });
    }
    if (url.pathname === '/__farm/in-flight' && req.method === 'DELETE') {
      stats.maxInFlightPerHost = 0;
      stats.maxInFlightHost = null;
      return json(200, {});
    }
    if (url.pathname === '/__farm/visits') {
      if (req.method === 'DELETE') {
        visits.clear();
        return json(200, {});
      }
      return json(200, Object.fromEntries(visits));
    }
    const storePath = /^\/__farm\/stores\/([^/]+)$/.exec(url.pathname);
    if (storePath && req.method === 'GET') {
      const found = storeOfHost(storePath[1]!);
      if (!found) return json(404, { error: 'not a farm store' });
      const { store } = found.entry;
      return json(200, {
        host: store.host,
        epoch: store.epoch,
        behaviour: store.behaviour,
        name: store.name,
        currency: store.currency,
        theme: store.theme.name,
        apps: store.apps.map((a) => a.slug),
        products: productsOf(found.entry).length,
      });
    }
    return json(404, { error: 'unknown control route' });
  }

  await new Promise<void>((resolve) =>
    server.listen(serverOptions.port ?? 0, serverOptions.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    port,
    options,
    overrides: `*.${options.domain}=http://127.0.0.1:${port}`,
    hosts: () => Array.from({ length: options.stores }, (_, i) => `s${i}.${options.domain}`),
    epoch: () => globalEpoch,
    advance(host) {
      if (!host) globalEpoch++;
      else {
        const parsed = parseFarmHost(options, host);
        if (!parsed) throw new Error(`${host} is not a farm store`);
        ownEpochs.set(parsed.index, (ownEpochs.get(parsed.index) ?? 0) + 1);
      }
    },
    store: (host) => storeOfHost(host)?.entry.store ?? null,
    products: (host) => {
      const found = storeOfHost(host);
      return found ? productsOf(found.entry) : [];
    },
    visits,
    stats,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function send(
  res: http.ServerResponse,
  status: number,
  type: string,
  body: string,
  headers: Record<string, string> = {},
): void {
  res
    .writeHead(status, {
      'content-type': type,
      'content-length': Buffer.byteLength(body),
      ...headers,
    })
    .end(body);
}
