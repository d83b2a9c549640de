import pg from 'pg';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BinaryCopyBuffer, postgresDate } from '../../src/seed/copy-binary.ts';
import { CopyBuffer, copyText, NULL } from '../../src/seed/copy-text.ts';
import { createTestDatabase, type TestDatabase } from '../support/database.ts';

describe('COPY encodings', () => {
  let db: TestDatabase;
  let client: pg.Client;
  beforeAll(async () => {
    db = await createTestDatabase();
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });
  afterAll(async () => {
    await client?.end();
    await db?.drop();
  });

  async function copy(sql: string, pieces: readonly (string | Buffer)[]) {
    await pipeline(Readable.from(pieces), client.query(copyFrom(sql)));
  }

  it('round-trips text with tabs, newlines, backslashes and JSON through the text format', async () => {
    await client.query('CREATE TEMP TABLE t (a text, b jsonb, c int)');
    const tricky = 'tab\there\nnew line \\ back\\slash\r"quoted"';
    const doc = { title: tricky, path: 'C:\\shop' };
    const buffer = new CopyBuffer(16);
    buffer.row(`${copyText(tricky)}\t${copyText(JSON.stringify(doc))}\t${NULL}`);
    buffer.row(`plain\t{}\t7`);
    await copy('COPY t (a, b, c) FROM STDIN', buffer.finish());
    const { rows } = await client.query('SELECT a, b, c FROM t ORDER BY c NULLS FIRST');
    expect(rows).toEqual([
      { a: tricky, b: doc, c: null },
      { a: 'plain', b: {}, c: 7 },
    ]);
  });

  it('writes integers, dates, floats and text in the binary format, across pieces', async () => {
    await client.query(
      'CREATE TEMP TABLE h (id int, day date, n int, small smallint, share float8, source text)',
    );
    const buffer = new BinaryCopyBuffer(64);
    for (let i = 0; i < 20; i++) {
      buffer
        .row(6)
        .int4(i)
        .date(postgresDate('2026-01-31'))
        .int4(-i * 1000)
        .int2(i)
        .float8(i / 4)
        .text('panel é');
    }
    const pieces = buffer.finish();
    expect(pieces.length).toBeGreaterThan(1);
    await copy('COPY h FROM STDIN WITH (FORMAT binary)', pieces);
    const { rows } = await client.query(
      `SELECT id, to_char(day, 'YYYY-MM-DD') AS day, n, small, share, source FROM h WHERE id = 19`,
    );
    expect(rows[0]).toEqual({
      id: 19,
      day: '2026-01-31',
      n: -19000,
      small: 19,
      share: 4.75,
      source: 'panel é',
    });
    expect(buffer.rows).toBe(20);
  });
});
