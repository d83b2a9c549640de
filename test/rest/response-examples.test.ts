// The /docs console's examples are real. Every operation of the OpenAPI description has a request
// example (its path, query and body values: the route's documented example) and, beside its success
// status, the answer to it recorded on a fresh install: the catalog a first `npm start` seeds, open-dev
// mode, the demo storefronts answering for the .example names and the job worker running scrapes and
// probes (rest/openapi/response-examples.json). The first suite checks the description: no operation
// lacks either example and each answer example passes its response schema. The second sends every
// example request as written, in the order of the story the examples tell, and checks each answer's
// status and schema; UPDATE_RESPONSE_EXAMPLES=1 rewrites the file from those answers.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type {
  OperationObject,
  ParameterObject,
  RequestBodyObject,
  ResponseObject,
  SchemaObject,
} from 'openapi3-ts/oas31';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startGatewayJobs } from '../../app/jobs.ts';
import { buildServer } from '../../app/server.ts';
import { buildOpenApiDocument } from '../../rest/openapi/document.ts';
import { EXAMPLE_STORY } from '../../rest/openapi/example-story.ts';
import {
  isPlaceholder,
  operationsOf,
  statusOfAnswer,
} from '../../rest/openapi/request-examples.ts';
import { catalogRoutes } from '../../rest/routes/index.ts';
import { loadConfig } from '../../src/platform/config.ts';
import type { JobWorker } from '../../src/platform/jobs/job-worker.ts';
import type { Services } from '../../src/platform/services.ts';
import { withDemoStorefronts } from '../../src/storefront/demo/demo-storefronts.ts';
import { createSeededServices } from '../support/seeded-server.ts';
import type { CatalogTestServices } from '../support/test-services.ts';
import { responseValidator } from './support/openapi-validation.ts';

/**
 * The examples are recorded on the catalog a first `npm start` seeds (SEED_STORES's default); the
 * check sends them to a smaller one that seeds faster, where every example store exists and every
 * example list answers as it does there (empty or not).
 */
const UPDATE = process.env.UPDATE_RESPONSE_EXAMPLES === '1';
const STORES = UPDATE ? loadConfig({}).SEED_STORES : 2_000;
const FILE = join(import.meta.dirname, '../../rest/openapi/response-examples.json');

/** the examples that change what others read, in the order of their story */
const STORY: string[] = EXAMPLE_STORY.map(([id]) => id);

/**
 * Discovery documents too large to be their own example: the example is their real opening (the
 * text's first lines; the description's version fields), which the live answer starts with.
 */
const EXCERPTS = ['getLlmsTxt', 'getDocsMarkdown', 'getOpenApi'];
/** the screenshot is an image: its answer example would be bytes, which OpenAPI examples do not hold */
const BINARY = ['getStoreScreenshot'];

/**
 * Answers on another success status of an operation's example request (`operationId:status`):
 * POST /v1/scrapes sent again once its store is in the catalog answers 200 already_exists.
 */
const AGAIN = ['requestScrape:200'];

const opening = (text: string) => `${text.split('\n\n').slice(0, 2).join('\n\n')}\n\n`;

/** the success statuses an operation documents */
const successStatuses = (operation: OperationObject) =>
  Object.keys(operation.responses ?? {})
    .map(Number)
    .filter((status) => status >= 200 && status < 300);

describe('the examples of the OpenAPI description', () => {
  const document = buildOpenApiDocument();
  const validate = responseValidator(document);
  const stored = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
  const operations = operationsOf(document);

  it('every operation has a request example: each path parameter, each required parameter and the JSON body', () => {
    const missing: string[] = [];
    for (const { operation } of operations) {
      for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
        if ((parameter.in === 'path' || parameter.required) && parameter.example === undefined)
          missing.push(`${operation.operationId} ${parameter.in} ${parameter.name}`);
        if (parameter.in === 'path' && isPlaceholder(String(parameter.example)))
          missing.push(`${operation.operationId} ${parameter.name} is a placeholder`);
      }
      const body = (operation.requestBody as RequestBodyObject | undefined)?.content[
        'application/json'
      ];
      if (body && body.example === undefined) missing.push(`${operation.operationId} body`);
    }
    expect(missing).toEqual([]);
  });

  it('every success status of every operation has an answer example, which its response schema accepts', () => {
    const problems: string[] = [];
    for (const { path, method, operation } of operations) {
      const id = operation.operationId!;
      if (BINARY.includes(id)) continue;
      for (const status of successStatuses(operation)) {
        const content = (operation.responses![String(status)] as ResponseObject).content ?? {};
        const examples = Object.entries(content).filter(([, media]) => media.example !== undefined);
        if (examples.length !== 1) {
          problems.push(`${id} ${status}: ${examples.length} answer examples`);
          continue;
        }
        const [[type, { example }]] = examples as [[string, { example: unknown }]];
        const key = `${id}:${status}` in stored ? `${id}:${status}` : id;
        expect([key, example]).toEqual([key, stored[key]]);
        // an excerpt is checked against the live document (the second suite)
        if (EXCERPTS.includes(id)) continue;
        if (type !== 'application/json') problems.push(`${id}: a ${type} answer example`);
        else problems.push(...validate(method, path, status, example).map((e) => `${id}: ${e}`));
      }
    }
    expect(problems).toEqual([]);
  });

  it('the examples file holds an answer for every operation and for nothing else', () => {
    const ids = operations.map(({ operation }) => operation.operationId!);
    expect(Object.keys(stored).sort()).toEqual(
      [...ids.filter((id) => !BINARY.includes(id)), ...AGAIN].sort(),
    );
  });

  it('the operations without an answer example answer only an image', () => {
    for (const { operation } of operations.filter(({ operation }) =>
      BINARY.includes(operation.operationId!),
    )) {
      const content = (operation.responses!['200'] as ResponseObject).content ?? {};
      expect(Object.keys(content)).toEqual(['image/jpeg']);
      expect((content['image/jpeg']!.schema as SchemaObject).format).toBe('binary');
    }
  });
});

describe('every example request, sent as written on a fresh install', () => {
  let test: CatalogTestServices;
  let demo: { close(): Promise<void> };
  let worker: JobWorker | undefined;
  let app: FastifyInstance;
  const document = buildOpenApiDocument();
  const validate = responseValidator(document);
  const operations = operationsOf(document);
  /** per operationId: the request sent, its status and its answer */
  const answers = new Map<string, { url: string; status: number; body: unknown }>();
  let screenshot: { taken: boolean; status: number; type: string } | undefined;

  type Answer = { status: number; body: any };
  const send = async (method: string, url: string, body?: unknown): Promise<Answer> => {
    const res = await app.inject({
      method: method as 'GET',
      url,
      headers: { accept: 'application/json' },
      ...(body === undefined ? {} : { payload: body as object }),
    });
    const json = (res.headers['content-type'] ?? '').toString().includes('json');
    return { status: res.statusCode, body: json ? res.json() : res.body };
  };
  /** sends again until `done` holds (a scrape or probe runs in the worker) */
  const pollUntil = async (
    method: string,
    url: string,
    done: (answer: Answer) => boolean,
  ): Promise<Answer> => {
    const deadline = Date.now() + 120_000;
    for (;;) {
      const answer = await send(method, url);
      if (done(answer)) return answer;
      if (Date.now() > deadline) throw new Error(`${url} still answers ${JSON.stringify(answer)}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const ended = (status: unknown) => status === 'done' || status === 'failed';

  /**
   * The request an operation's examples make: its path and query parameters' examples and its JSON
   * body's, as the /docs console sends them; `values` replaces a path value.
   */
  const requestOf = (id: string, values: Record<string, string> = {}) => {
    const { path, method, operation } = operations.find((o) => o.operation.operationId === id)!;
    let url = path;
    const query = new URLSearchParams();
    for (const parameter of (operation.parameters ?? []) as ParameterObject[]) {
      const value: unknown = values[parameter.name] ?? parameter.example;
      if (value === undefined) continue;
      if (parameter.in === 'path')
        url = url.replace(`{${parameter.name}}`, encodeURIComponent(String(value)));
      else if (parameter.in === 'query')
        for (const item of Array.isArray(value) ? value : [value])
          query.append(parameter.name, String(item));
    }
    const body = (operation.requestBody as RequestBodyObject | undefined)?.content[
      'application/json'
    ]?.example;
    return {
      method: method.toUpperCase(),
      url: query.size > 0 ? `${url}?${query}` : url,
      ...(body === undefined ? {} : { body }),
    };
  };

  beforeAll(async () => {
    test = await createSeededServices(STORES);
    // as `npm start` does: the demo storefronts answer for the .example names, the worker runs jobs
    const withDemo = await withDemoStorefronts(
      test.services.config,
      test.services.db.pool,
      test.services.logger,
    );
    demo = withDemo;
    const services: Services = { ...test.services, config: withDemo.config };
    worker = await startGatewayJobs(services);
    app = await buildServer(services);

    const record = (id: string, url: string, answer: Answer) => answers.set(id, { url, ...answer });
    /** sends the operation's example request as the description gives it (`values` for a path value an earlier answer gave) */
    const follow = async (id: string, values: Record<string, string> = {}): Promise<Answer> => {
      const request = requestOf(id, values);
      const answer = await send(request.method, request.url, request.body);
      record(id, request.url, answer);
      return answer;
    };

    // the discovery routes and the catalog's reads, then the story
    for (const { operation } of operations) {
      const id = operation.operationId!;
      if (!STORY.includes(id) && !BINARY.includes(id)) await follow(id);
    }

    await follow('createAlert');
    const queued = await follow('requestScrape');
    const scrape = requestOf('getScrapeRequest', { id: queued.body.id }).url;
    record(
      'getScrapeRequest',
      scrape,
      await pollUntil('GET', scrape, (a) => ended(a.body?.status)),
    );
    // the same request again, the store now in the catalog: 200 already_exists
    const again = requestOf('requestScrape');
    record('requestScrape:200', again.url, await send(again.method, again.url, again.body));
    // the screenshot that scrape took (when Chromium is there to take it)
    const image = await app.inject(
      requestOf('getStoreScreenshot') as { method: 'GET'; url: string },
    );
    screenshot = {
      taken: services.config.CHROMIUM_PATH !== undefined,
      status: image.statusCode,
      type: String(image.headers['content-type']),
    };
    const bulk = await follow('requestScrapesBulk');
    for (const item of (bulk.body?.data ?? []) as Array<{ id: string | null }>)
      if (item.id) await pollUntil('GET', `/v1/scrapes/${item.id}`, (a) => ended(a.body?.status));

    const probe = requestOf('getSignalProbe').url;
    await follow('createSignal');
    const first = await pollUntil('GET', probe, (a) => ended(a.body?.progress?.status));
    await follow('probeSignal');
    record(
      'getSignalProbe',
      probe,
      await pollUntil(
        'GET',
        probe,
        (a) => a.body?.id !== first.body?.id && ended(a.body?.progress?.status),
      ),
    );
    for (const id of STORY.slice(STORY.indexOf('listSignals'))) await follow(id);

    if (UPDATE) {
      const bodies = Object.fromEntries(
        [...answers].map(([id, { body }]) => [
          id,
          id === 'getOpenApi'
            ? {
                openapi: (body as any).openapi,
                info: { title: (body as any).info.title, version: (body as any).info.version },
              }
            : EXCERPTS.includes(id)
              ? opening(body as string)
              : body,
        ]),
      );
      const ordered = Object.fromEntries(
        operations
          .map(({ operation }) => operation.operationId!)
          .flatMap((id) => [id, ...AGAIN.filter((key) => key.startsWith(`${id}:`))])
          .filter((id) => id in bodies)
          .map((id) => [id, bodies[id]]),
      );
      writeFileSync(FILE, `${JSON.stringify(ordered, null, 2)}\n`);
    }
  }, 600_000);
  afterAll(async () => {
    await app?.close();
    await worker?.stop();
    await demo?.close();
    await test?.close();
  });

  it('the story names every operation that changes data or reads what the story made, each by its route', () => {
    for (const [id, named] of EXAMPLE_STORY) {
      const route = catalogRoutes.find((r) => r.operationId === id);
      expect([id, route && `${route.method} ${route.path}`]).toEqual([id, named]);
    }
    const storyLike = catalogRoutes
      .filter((route) => /^\/v1\/(scrapes|signals|alerts)/.test(route.path))
      .map((route) => route.operationId);
    expect([...STORY].sort()).toEqual(storyLike.sort());
    const writes = catalogRoutes.filter(
      (route) => route.method !== 'GET' && route.operationId !== 'lookupStores',
    );
    expect(writes.filter((route) => !STORY.includes(route.operationId))).toEqual([]);
  });

  it("the description's example requests are the routes' documented examples (docs.md's Example lines)", () => {
    for (const route of catalogRoutes) {
      const [path, body] = route.example.split(/ (.*)/s);
      const documented = new URL(path!, 'http://x');
      const described = new URL(requestOf(route.operationId).url, 'http://x');
      const sorted = (url: URL) => [...url.searchParams].sort();
      expect([route.operationId, sorted(described)]).toEqual([
        route.operationId,
        sorted(documented),
      ]);
      if (!route.example.includes('{'))
        expect([route.operationId, described.pathname]).toEqual([
          route.operationId,
          documented.pathname,
        ]);
      expect([route.operationId, requestOf(route.operationId).body]).toEqual([
        route.operationId,
        body === undefined ? undefined : JSON.parse(body),
      ]);
    }
  });

  it('each answers its documented success status with a body its response schema accepts', () => {
    const sent = operations
      .map(({ operation }) => operation.operationId!)
      .filter((id) => !BINARY.includes(id));
    expect([...answers.keys()].sort()).toEqual([...sent, ...AGAIN].sort());
    const problems: string[] = [];
    for (const [key, answer] of answers) {
      const [id, again] = key.split(':');
      const { path, method, operation } = operations.find((o) => o.operation.operationId === id)!;
      const route = catalogRoutes.find((r) => r.operationId === id);
      const expected = again ? Number(again) : route ? statusOfAnswer(route, answer.body) : 200;
      if (answer.status !== expected || !successStatuses(operation).includes(answer.status)) {
        problems.push(`${key} ${answer.url}: ${answer.status} ${JSON.stringify(answer.body)}`);
        continue;
      }
      if (typeof answer.body === 'string') continue; // llms.txt, docs.md: text
      problems.push(
        ...validate(method, path, answer.status, answer.body).map((e) => `${key}: ${e}`),
      );
    }
    expect(problems).toEqual([]);
  });

  it('the scrape, the probes and the alert of the story ran: done, sales estimated, the store matched', () => {
    expect(answers.get('getScrapeRequest')?.body).toMatchObject({ status: 'done' });
    expect(answers.get('getSignalProbe')?.body).toMatchObject({ progress: { status: 'done' } });
    expect(answers.get('listAlertMatches')?.body).toMatchObject({
      data: [expect.objectContaining({ domain: expect.any(String) })],
    });
  });

  it("the screenshot's example is the image of the store the story scraped", () => {
    expect(screenshot?.taken ? [screenshot.status, screenshot.type] : 'no Chromium').toEqual(
      screenshot?.taken ? [200, expect.stringMatching(/^image\//)] : 'no Chromium',
    );
  });

  it('the stored answer of every operation has the shape of the live one, and the excerpts open the live documents', () => {
    const stored = JSON.parse(readFileSync(FILE, 'utf8')) as Record<string, unknown>;
    for (const [id, answer] of answers) {
      if (id === 'getOpenApi') expect(answer.body).toMatchObject(stored[id] as object);
      else if (EXCERPTS.includes(id))
        expect((answer.body as string).startsWith(stored[id] as string), id).toBe(true);
      else expect([id, keysOf(stored[id])]).toEqual([id, keysOf(answer.body)]);
    }
  });
});

/** the top-level field names of an answer, and for a list whether it is empty */
function keysOf(body: unknown): unknown {
  if (typeof body !== 'object' || body === null) return typeof body;
  const data = (body as { data?: unknown }).data;
  return {
    keys: Object.keys(body).sort(),
    ...(Array.isArray(data) ? { empty: data.length === 0 } : {}),
  };
}
