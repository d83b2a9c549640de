// The response cache of the global catalog: a persisted operation's answer (a REST route) whose
// every root field is `cache: 'public'` is reused for the same variables for RESPONSE_CACHE_TTL_MS,
// in memory. It runs after admission (src/gateway/pipeline.ts), so every request is still
// identified and charged; only the execution is shared. A scrape's or observation's event drops the answers it may change
// (app/catalog-invalidation.ts wires them); other writes are bounded by the TTL.
import {
  getOperationAST,
  Kind,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';
import { rulesOf } from '../access/field-rules.ts';

/** RESPONSE_CACHE_TTL_MS's default: the freshness bound stated in the decisions */
export const DEFAULT_RESPONSE_CACHE_TTL_MS = 10_000;

/** Whether an operation's answer may be shared between callers: every root field it runs declares cache 'public'. */
export function isCacheableOperation(schema: GraphQLSchema, document: DocumentNode): boolean {
  const operation = getOperationAST(document);
  const root = operation && schema.getRootType(operation.operation);
  if (operation?.operation !== 'query' || !root) return false;
  const fields = root.getFields();
  return operation.selectionSet.selections.every(
    (selection) =>
      selection.kind === Kind.FIELD && rulesOf(fields[selection.name.value]).cache === 'public',
  );
}

export interface ResponseCachePluginOptions {
  cache: ResponseCache;
  /** only these documents are cached (the persisted operations REST runs), never an arbitrary one */
  isPersisted(document: DocumentNode): boolean;
  /** the canonical store domain an operation's `domain` variable names, for invalidation; undefined = about no single store */
  domainOf(value: unknown): string | undefined;
}

export function responseCachePlugin({
  cache,
  isPersisted,
  domainOf,
}: ResponseCachePluginOptions): Plugin {
  const cacheable = new WeakMap<DocumentNode, boolean>();
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!isPersisted(args.document)) return;
      let allowed = cacheable.get(args.document);
      if (allowed === undefined)
        cacheable.set(args.document, (allowed = isCacheableOperation(args.schema, args.document)));
      if (!allowed) return;
      const variables = (args.variableValues ?? {}) as Record<string, unknown>;
      // a list's hasMore stops at the caller's result window: plans that list to different depths share no answer
      const { resultWindow } = args.contextValue as { resultWindow?: number };
      const key = `${ResponseCache.keyOf(args.operationName ?? '', variables)}|${resultWindow ?? ''}`;
      setExecuteFn(async (executionArgs) => {
        let own: ExecutionResult | undefined;
        const answer = await cache.getOrLoad(key, domainOf(variables.domain), async () => {
          own = (await executeFn(executionArgs)) as ExecutionResult;
          // an answer with errors is never shared: its errors still carry what masking needs
          return own.errors?.length
            ? { status: 500, body: '' }
            : { status: 200, body: JSON.stringify(own) };
        });
        if (own) return own;
        // a shared load that failed: this request runs on its own and meets its own error
        if (answer.status !== 200) return executeFn(executionArgs);
        return JSON.parse(answer.body) as ExecutionResult;
      });
    },
  };
}

export interface CachedResponse {
  status: number;
  /** the JSON body, serialized once */
  body: string;
}

interface Entry extends CachedResponse {
  /** the one store domain the answer is about (its path names it); absent = it may hold any store */
  domain?: string;
}

export interface ResponseCacheOptions {
  ttlMs: number;
  maxEntries?: number;
  /** total bytes of cached bodies */
  maxBytes?: number;
}

const DEFAULT_MAX_ENTRIES = 20_000;
const DEFAULT_MAX_BYTES = 64 * 1024 * 1024;

export class ResponseCache {
  private readonly entries: LRUCache<string, Entry>;
  /** bumped by every invalidation: an answer read before it must not be stored after it */
  private generation = 0;
  /** loads under way, by key */
  private readonly loading = new Map<string, Promise<CachedResponse>>();
  /** when a store's answers were last dropped: an answer about it read before then must not be stored */
  private readonly storeDropped: LRUCache<string, number>;
  /** the keys of the answers about each domain */
  private readonly keysByDomain = new Map<string, Set<string>>();

  constructor(options: ResponseCacheOptions) {
    this.entries = new LRUCache<string, Entry>({
      max: options.maxEntries ?? DEFAULT_MAX_ENTRIES,
      maxSize: options.maxBytes ?? DEFAULT_MAX_BYTES,
      sizeCalculation: (entry) => Math.max(1, entry.body.length),
      ttl: options.ttlMs,
      // an expired answer is never served, not even once while it is being replaced
      allowStale: false,
      dispose: (entry, key) => {
        if (entry.domain === undefined) return;
        const keys = this.keysByDomain.get(entry.domain);
        keys?.delete(key);
        if (keys?.size === 0) this.keysByDomain.delete(entry.domain);
      },
    });
    this.storeDropped = new LRUCache<string, number>({
      max: 100_000,
      ttl: Math.max(1, options.ttlMs),
    });
  }

  /** The key of an operation run with these variables (built from parsed, so already canonical, parameters). */
  static keyOf(operationId: string, params: Record<string, unknown>): string {
    return `${operationId} ${JSON.stringify(params, (_key, value: unknown) => (isPlainObject(value) ? sortedKeys(value) : value))}`;
  }

  /**
   * The cached answer, or the one `load` produces. Concurrent misses of one key share a single
   * load (its answer or its error), so a burst of identical requests costs one execution. A 200
   * answer is kept unless an invalidation happened while it was being read.
   */
  async getOrLoad(
    key: string,
    domain: string | undefined,
    load: () => Promise<CachedResponse>,
  ): Promise<CachedResponse> {
    const hit = this.entries.get(key);
    if (hit) return hit;
    const pending = this.loading.get(key);
    if (pending) return pending;

    const generation = this.generation;
    const started = performance.now();
    const loading = load().then((response) => {
      const storeDropped = domain !== undefined && (this.storeDropped.get(domain) ?? -1) >= started;
      if (response.status === 200 && generation === this.generation && !storeDropped) {
        this.entries.set(key, { ...response, domain });
        if (domain !== undefined) {
          let keys = this.keysByDomain.get(domain);
          if (!keys) this.keysByDomain.set(domain, (keys = new Set()));
          keys.add(key);
        }
      }
      return response;
    });
    this.loading.set(key, loading);
    const forget = () => {
      if (this.loading.get(key) === loading) this.loading.delete(key);
    };
    loading.then(forget, forget);
    return loading;
  }

  /** A store changed: drops the answers about its domain and every answer that may list it. */
  invalidateDomain(domain: string): void {
    this.generation++;
    // reads under way began before the change: later requests must not join them
    this.loading.clear();
    for (const [key, entry] of this.entries.entries()) {
      if (entry.domain === undefined || entry.domain === domain) this.entries.delete(key);
    }
  }

  /** A store was re-observed: drops the answers about its domain only (lists keep their TTL). */
  dropStore(domain: string): void {
    this.storeDropped.set(domain, performance.now());
    for (const key of [...(this.keysByDomain.get(domain) ?? [])]) this.entries.delete(key);
  }

  clear(): void {
    this.generation++;
    this.loading.clear();
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

const sortedKeys = (value: Record<string, unknown>) =>
  Object.fromEntries(
    Object.keys(value)
      .sort()
      .map((key) => [key, value[key]]),
  );
