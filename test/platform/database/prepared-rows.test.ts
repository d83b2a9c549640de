// Rows of named prepared statements, built from the statement's shape, are the rows pg builds itself.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from '../../support/database.ts';
import { PreparedRowsClient } from '../../../src/platform/database/prepared-rows.ts';

const SAMPLE = `SELECT s.n AS "id", s.n::bigint AS "big", (s.n / 3.0)::numeric(10, 2) AS "share", s.n % 2 = 0 AS "even",
  'store ' || s.n AS "name", CASE WHEN s.n = 2 THEN NULL ELSE s.n END AS "maybe",
  json_build_object('n', s.n, 'tags', json_build_array('a', 'b')) AS "doc", ARRAY[s.n, s.n + 1] AS "pair",
  timestamptz '2026-11-26 12:00:00+00' + make_interval(days => s.n) AS "at", date '2026-01-01' + s.n AS "day",
  1 AS "dup", 2 AS "dup"
  FROM generate_series(1, $1::int) AS s(n) ORDER BY s.n`;

describe('rows of named prepared statements', () => {
  let db: TestDatabase;
  let shaped: pg.Pool;
  let plain: pg.Pool;
  beforeAll(async () => {
    db = await createTestDatabase();
    shaped = new pg.Pool({ connectionString: db.url, max: 2, Client: PreparedRowsClient });
    plain = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  /** a pool of one shaped connection, for what one connection keeps between executions */
  const oneConnection = () =>
    new pg.Pool({ connectionString: db.url, max: 1, Client: PreparedRowsClient });

  /** A one-row table and a named `SELECT *` over it; `addColumn` migrates it as a release would. */
  async function migratingTable(table: string) {
    await plain.query(`CREATE TABLE ${table} (id int)`);
    await plain.query(`INSERT INTO ${table} VALUES (1)`);
    return {
      statement: { name: `prepared-rows-${table}`, text: `SELECT * FROM ${table}`, values: [] },
      addColumn: () => plain.query(`ALTER TABLE ${table} ADD COLUMN label text DEFAULT 'x'`),
    };
  }
  afterAll(async () => {
    await shaped?.end();
    await plain?.end();
    await db?.drop();
  });

  it('are the rows pg builds, for every kind of column, a null and a repeated name', async () => {
    const statement = { name: 'prepared-rows-sample', text: SAMPLE, values: [3] };
    const expected = await plain.query(statement);
    // several executions: the first describes the statement, the later ones reuse its shape
    for (let i = 0; i < 3; i++) {
      const result = await shaped.query(statement);
      expect(result.rows).toEqual(expected.rows);
      expect(result.rowCount).toBe(3);
      expect(result.fields.map((f) => f.name)).toEqual(expected.fields.map((f) => f.name));
    }
    expect(expected.rows[0]).toMatchObject({
      big: '1',
      share: '0.33',
      doc: { n: 1, tags: ['a', 'b'] },
      pair: [1, 2],
      dup: 2,
    });
    expect(expected.rows[1].maybe).toBeNull();
  });

  it('are described once per connection: later executions bind and execute without a Describe', async () => {
    const statement = { name: 'prepared-rows-described', text: SAMPLE, values: [3] };
    const expected = await plain.query(statement);
    const pool = oneConnection();
    try {
      const client = await pool.connect();
      let descriptions = 0;
      const connection = (client as unknown as { connection: NodeJS.EventEmitter }).connection;
      connection.on('rowDescription', () => descriptions++);
      try {
        for (let i = 0; i < 4; i++) {
          const result = await client.query({ ...statement, values: [3 - (i % 2)] });
          expect(result.rows).toEqual(expected.rows.slice(0, 3 - (i % 2)));
          expect(result.fields.map((f) => f.name)).toEqual(expected.fields.map((f) => f.name));
        }
        // a value pg cannot send fails that query alone, before anything runs
        const circular: Record<string, unknown> = {};
        circular.self = circular;
        await expect(client.query({ ...statement, values: [circular] })).rejects.toThrow();
      } finally {
        client.release();
      }
      expect(descriptions).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it("serve unnamed statements, array rows and a checked-out client's own promise as pg does", async () => {
    const unnamed = await shaped.query(SAMPLE, [2]);
    expect(unnamed.rows).toEqual((await plain.query(SAMPLE, [2])).rows);
    const arrays = await shaped.query({
      name: 'prepared-rows-arrays',
      text: SAMPLE,
      values: [2],
      rowMode: 'array',
    });
    expect(arrays.rows[0]).toBeInstanceOf(Array);
    const client = await shaped.connect();
    try {
      const viaClient = await client.query({
        name: 'prepared-rows-sample',
        text: SAMPLE,
        values: [1],
      });
      expect(viaClient.rows).toEqual((await plain.query(SAMPLE, [1])).rows);
    } finally {
      client.release();
    }
  });

  it('follows a statement whose columns changed (prepared again on a new connection after a migration)', async () => {
    const { statement, addColumn } = await migratingTable('prepared_rows_t');
    const first = oneConnection();
    expect((await first.query(statement)).rows).toEqual([{ id: 1 }]);
    await first.end();
    await addColumn();
    const second = oneConnection();
    try {
      expect((await second.query(statement)).rows).toEqual([{ id: 1, label: 'x' }]);
    } finally {
      await second.end();
    }
  });

  it('is refused by PostgreSQL on a connection that prepared it before its columns changed, never read with the old shape', async () => {
    const { statement, addColumn } = await migratingTable('prepared_rows_same');
    const pool = oneConnection();
    try {
      expect((await pool.query(statement)).rows).toEqual([{ id: 1 }]);
      expect((await pool.query(statement)).rows).toEqual([{ id: 1 }]);
      await addColumn();
      await expect(pool.query(statement)).rejects.toThrow(
        'cached plan must not change result type',
      );
    } finally {
      await pool.end();
    }
  });

  it('fails a query whose value cannot be parsed, and the connection serves the next one', async () => {
    // an int4 parser that throws stands in for a malformed value
    const failing = {
      getTypeParser: (oid: number) =>
        oid === 23
          ? () => {
              throw new Error('unparsable');
            }
          : pg.types.getTypeParser(oid),
    };
    const pool = new pg.Pool({
      connectionString: db.url,
      max: 1,
      Client: PreparedRowsClient,
      types: failing as unknown as pg.CustomTypesConfig,
    });
    try {
      await expect(
        pool.query({
          name: 'prepared-rows-throws',
          text: 'SELECT 1 AS "one" FROM generate_series(1, 3)',
          values: [],
        }),
      ).rejects.toThrow('unparsable');
      expect(
        (
          await pool.query({
            name: 'prepared-rows-text',
            text: `SELECT 'ok' AS "word"`,
            values: [],
          })
        ).rows,
      ).toEqual([{ word: 'ok' }]);
    } finally {
      await pool.end();
    }
  });
});
