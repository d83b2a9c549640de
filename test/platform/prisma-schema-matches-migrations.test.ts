// Prisma Migrate cannot run here, so migrations are written by hand. This test keeps them honest:
// every model field of prisma/schema.prisma is a column of the migrated database with a matching
// type and nullability, and every column of the database is a field of the schema.
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

interface SchemaColumn {
  table: string;
  column: string;
  type: string;
  nullable: boolean;
  list: boolean;
}

const SQL_TYPES: Record<string, string[]> = {
  Int: ['integer', 'smallint'],
  BigInt: ['bigint'],
  String: ['text', 'character', 'uuid', 'character varying'],
  Float: ['double precision'],
  Boolean: ['boolean'],
  DateTime: ['timestamp with time zone', 'date'],
  Decimal: ['numeric'],
  Json: ['jsonb'],
  Bytes: ['bytea'],
};

function parseSchema(text: string): SchemaColumn[] {
  const enums = new Set([...text.matchAll(/^enum (\w+) \{/gm)].map((m) => m[1]!));
  const models = [...text.matchAll(/^model (\w+) \{([\s\S]*?)^\}/gm)];
  const modelNames = new Set(models.map((m) => m[1]!));
  const columns: SchemaColumn[] = [];
  for (const [, , body] of models) {
    const table = /@@map\("(\w+)"\)/.exec(body!)?.[1];
    if (!table) throw new Error('every model maps to a snake_case table');
    for (const line of body!.split('\n')) {
      if (line.trim().startsWith('//') || line.trim().startsWith('@@')) continue;
      // Unsupported("text[]"): a column Prisma only describes (a generated one); its SQL type is in the quotes
      const unsupported = /^\s+(\w+)\s+Unsupported\("\w+(\[\])?"\)(\?)?(.*)$/.exec(line);
      const m = unsupported
        ? [line, unsupported[1], 'Unsupported', unsupported[2], unsupported[3], unsupported[4]]
        : /^\s+(\w+)\s+(\w+)(\[\])?(\?)?(.*)$/.exec(line);
      if (!m) continue;
      const [, field, type, list, optional, attrs] = m;
      if (modelNames.has(type!)) continue; // relation field, no column
      columns.push({
        table,
        column: /@map\("(\w+)"\)/.exec(attrs!)?.[1] ?? field!,
        type: enums.has(type!) ? 'enum' : type!,
        nullable: Boolean(optional) || Boolean(list),
        list: Boolean(list),
      });
    }
  }
  return columns;
}

describe('prisma/schema.prisma and the SQL migrations', () => {
  let db: TestDatabase;
  let dbColumns: Array<{
    table_name: string;
    column_name: string;
    data_type: string;
    udt_name: string;
    is_nullable: string;
  }>;
  let schemaColumns: SchemaColumn[];

  beforeAll(async () => {
    db = await createTestDatabase();
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    ({ rows: dbColumns } = await client.query(
      `SELECT table_name, column_name, data_type, udt_name, is_nullable FROM information_schema.columns
        WHERE table_schema = 'public' AND table_name <> '_prisma_migrations'
          AND table_name NOT IN (SELECT relname FROM pg_class WHERE relispartition)`,
    ));
    await client.end();
    schemaColumns = parseSchema(
      await readFile(new URL('../../prisma/schema.prisma', import.meta.url), 'utf8'),
    );
  });
  afterAll(() => db.drop());

  it('has a column of matching type and nullability for every schema field', () => {
    const problems: string[] = [];
    for (const c of schemaColumns) {
      const col = dbColumns.find((d) => d.table_name === c.table && d.column_name === c.column);
      if (!col) {
        problems.push(`${c.table}.${c.column}: missing in the migrations`);
        continue;
      }
      const typeOk = c.list
        ? col.data_type === 'ARRAY'
        : c.type === 'enum'
          ? col.data_type === 'USER-DEFINED'
          : (SQL_TYPES[c.type] ?? []).includes(col.data_type);
      if (!typeOk)
        problems.push(
          `${c.table}.${c.column}: schema ${c.type}${c.list ? '[]' : ''}, database ${col.data_type}`,
        );
      if (!c.list && (col.is_nullable === 'YES') !== c.nullable) {
        problems.push(
          `${c.table}.${c.column}: nullable in ${c.nullable ? 'schema' : 'database'} only`,
        );
      }
    }
    expect(problems).toEqual([]);
  });

  it('has no column the schema does not know', () => {
    const known = new Set(schemaColumns.map((c) => `${c.table}.${c.column}`));
    const unknown = dbColumns
      .map((d) => `${d.table_name}.${d.column_name}`)
      .filter((k) => !known.has(k));
    expect(unknown).toEqual([]);
  });
});
