// Imports point one way: platform/ below the features, the features below the composition root
// (app/), and rest/ a thin adapter over src/ that src/ never reads. The rules are checked on every
// relative import of the source tree (static `import`/`export … from` and dynamic `import()`), so an
// import that points the wrong way fails here, naming the file and the import.
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

interface Rule {
  why: string;
  from: RegExp;
  to: RegExp;
}

/** Folders of src/ that are not features: the platform, generated code, and the legacy store's port and adapters (a backend, like the database). */
const NOT_FEATURES = ['platform', 'generated', 'legacy'];

const RULES: Rule[] = [
  {
    why: 'src/ never imports rest/ or the composition root (app/)',
    from: /^src\//,
    to: /^(rest|app)\//,
  },
  {
    why: 'platform/ imports no feature',
    from: /^src\/platform\//,
    to: new RegExp(`^src/(?!(${NOT_FEATURES.join('|')})/)[^/]+/`),
  },
  {
    why: 'access/ does not import graphql/ or discovery/',
    from: /^src\/access\//,
    to: /^src\/(graphql|discovery)\//,
  },
  { why: 'http/ does not import scrapes/', from: /^src\/http\//, to: /^src\/scrapes\// },
  {
    why: 'apps/ does not import stores/ (stores/ owns the relation: Store.apps, App.stores)',
    from: /^src\/apps\//,
    to: /^src\/stores\//,
  },
];

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)['"](\.{1,2}\/[^'"]+)['"]/g;

function importsOf(file: string, text: string): Edge[] {
  return [...text.matchAll(IMPORT)].map((match) => ({
    from: file,
    to: normalize(join(dirname(file), match[1]!)),
  }));
}

function violations(edges: readonly Edge[], rules: readonly Rule[] = RULES): string[] {
  return edges.flatMap((edge) =>
    rules
      .filter((rule) => rule.from.test(edge.from) && rule.to.test(edge.to))
      .map((rule) => `${edge.from} -> ${edge.to}: ${rule.why}`),
  );
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
  it('finds a wrong-way import when there is one (the check itself works)', () => {
    const edges = importsOf(
      'src/access/http-hook.ts',
      "import { GRAPHQL_PATH } from '../graphql/yoga.ts';\nconst x = await import('../../rest/index.ts');",
    );
    expect(edges.map((e) => e.to)).toEqual(['src/graphql/yoga.ts', 'rest/index.ts']);
    expect(violations(edges)).toHaveLength(2);
    expect(
      violations(
        importsOf(
          'src/platform/health.ts',
          "import { isOpenDevMode } from '../access/authenticate.ts';",
        ),
      ),
    ).toHaveLength(1);
    expect(
      violations(
        importsOf(
          'src/platform/services.ts',
          "import type { LegacyStore } from '../legacy/port.ts';",
        ),
      ),
    ).toEqual([]);
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
