// Imports point one way, the floors CONTRIBUTING.md lists ("Where code goes"): src/ from the
// platform up to the gateway, rest/ over src/, app/ (the composition root) over both. The order of
// src/'s folders is read from CONTRIBUTING.md itself, so the rules written down are the rules held.
// Every relative import of the source tree (static `import`/`export … from`, dynamic `import()`) is
// checked, and an import that points the wrong way fails here, naming the file and the import.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** One import: the importing file and the file it names, both relative to the repository root. */
interface Edge {
  from: string;
  to: string;
}

/**
 * src/'s folders from the ground up, as CONTRIBUTING.md's numbered floors name them (`src/x/`):
 * a folder imports itself and the folders named before it, never one named after it.
 */
function floorsOf(contributing: string): string[] {
  const section = contributing.split(/^## /m).find((part) => part.startsWith('Where code goes'));
  if (!section) throw new Error('CONTRIBUTING.md has no "Where code goes" section');
  // a numbered item and the indented lines that carry it on
  const items = section.match(/^\d+\. .*(\n[ \t]+\S.*)*/gm) ?? [];
  return items.flatMap((item) => [...item.matchAll(/`src\/([\w-]+)\/`/g)].map((m) => m[1]!));
}

const FLOORS = floorsOf(readFileSync(join(ROOT, 'CONTRIBUTING.md'), 'utf8'));

const srcFolder = (path: string): string | undefined => /^src\/([^/]+)\//.exec(path)?.[1];

/** Why the import breaks a rule, or undefined when it keeps them all. */
function broken(edge: Edge, floors: readonly string[] = FLOORS): string | undefined {
  if (/^src\//.test(edge.from) && /^(rest|app)\//.test(edge.to))
    return 'src/ never imports rest/ or the composition root (app/)';
  if (/^rest\//.test(edge.from) && /^app\//.test(edge.to))
    return 'rest/ never imports the composition root (app/)';
  if (/^rest\/openapi\//.test(edge.from) && /^rest\/self-description\//.test(edge.to))
    return 'rest/openapi/ never imports rest/self-description/ (docs.md and llms.txt read the OpenAPI document)';
  if (!/^src\//.test(edge.from) || !/^src\//.test(edge.to)) return undefined;
  const from = srcFolder(edge.from);
  const to = srcFolder(edge.to);
  if (from === undefined || to === undefined)
    return 'src/ holds folders only: a file of its own belongs in one of the floors';
  const fromFloor = floors.indexOf(from);
  const toFloor = floors.indexOf(to);
  if (fromFloor < 0 || toFloor < 0)
    return `src/${fromFloor < 0 ? from : to}/ is on no floor: add it to CONTRIBUTING.md's list`;
  if (toFloor > fromFloor) return `src/${from}/ stands below src/${to}/ (CONTRIBUTING.md's floors)`;
  return undefined;
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function importsOf(file: string, text: string): Edge[] {
  return [...text.matchAll(IMPORT)].map((match) => ({
    from: file,
    to: normalize(join(dirname(file), match[1]!)),
  }));
}

function violations(edges: readonly Edge[], floors: readonly string[] = FLOORS): string[] {
  return edges.flatMap((edge) => {
    const why = broken(edge, floors);
    return why ? [`${edge.from} -> ${edge.to}: ${why}`] : [];
  });
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === 'generated' || entry.name === 'node_modules' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('import direction', () => {
  it('reads the floors from CONTRIBUTING.md, every folder of src/ on one', () => {
    expect(FLOORS.slice(0, 2)).toEqual(['generated', 'platform']);
    expect(FLOORS.at(-1)).toBe('gateway');
    expect(new Set(FLOORS).size).toBe(FLOORS.length);
    const folders = readdirSync(join(ROOT, 'src'), { withFileTypes: true });
    expect(folders.filter((entry) => !entry.isDirectory()).map((entry) => entry.name)).toEqual([]);
    const unplaced = folders.map((entry) => entry.name).filter((name) => !FLOORS.includes(name));
    expect(unplaced).toEqual([]);
  });

  it('finds a wrong-way import when there is one (the check itself works)', () => {
    const edges = importsOf(
      'src/access/http-hook.ts',
      "import { GRAPHQL_PATH } from '../gateway/yoga.ts';\nconst x = await import('../../rest/index.ts');",
    );
    expect(edges.map((e) => e.to)).toEqual(['src/gateway/yoga.ts', 'rest/index.ts']);
    expect(violations(edges)).toHaveLength(2);
    const wrongWay: [string, string][] = [
      // the kernel never reads a feature, nor a feature the gateway that assembles it
      ['src/graphql/builder.ts', "import '../stores/store.type.ts';"],
      ['src/stores/store.query.ts', "import { schema } from '../gateway/schema.ts';"],
      // the cycles this list replaced: stores <-> seed, the platform -> a feature
      ['src/stores/domain.ts', "import { DOMAIN_ENDINGS } from '../seed/names.ts';"],
      ['src/platform/health.ts', "import { isOpenDevMode } from '../access/authenticate.ts';"],
      ['src/access/api-keys.ts', "import { storedWebhookSecret } from '../scrapes/x.ts';"],
      [
        'rest/routes/stores/store-profile.ts',
        "import { startGatewayJobs } from '../../../app/jobs.ts';",
      ],
      // the OpenAPI description stands below the documents rendered from it
      ['rest/openapi/document.ts', "import { DECISIONS } from '../self-description/x.ts';"],
      ['src/stores/store.ts', "import { x } from '../newfolder/x.ts';"],
    ];
    for (const [file, text] of wrongWay) expect(violations(importsOf(file, text))).toHaveLength(1);
    const rightWay: [string, string][] = [
      ['src/platform/services.ts', "import type { LegacyStore } from './legacy/port.ts';"],
      [
        'src/stores/rollups/store-rollups.ts',
        "import { LISTED_STORE } from '../listed-stores.ts';",
      ],
      ['src/seed/names.ts', "import { SYNTHETIC_TLD } from '../stores/domain.ts';"],
      ['src/gateway/schema.ts', "import '../stores/stores.schema.ts';"],
      ['app/cli/keys.ts', "import { storedWebhookSecret } from '../../src/scrapes/x.ts';"],
      ['rest/self-description/docs-md.ts', "import { DECISIONS } from '../openapi/decisions.ts';"],
    ];
    for (const [file, text] of rightWay) expect(violations(importsOf(file, text))).toEqual([]);
  });

  it('holds for every import of app/, src/ and rest/', () => {
    const edges = ['app', 'src', 'rest']
      .flatMap(sourceFiles)
      .flatMap((file) =>
        importsOf(relative(ROOT, join(ROOT, file)), readFileSync(join(ROOT, file), 'utf8')),
      );
    expect(edges.length).toBeGreaterThan(500);
    expect(violations(edges)).toEqual([]);
  });
});
