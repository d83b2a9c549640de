// PostgreSQL COPY ... FROM STDIN (FORMAT binary) for the biggest tables (daily history, monthly
// traffic): fixed-width integers, dates and floats go in as bytes, so neither this process nor the
// server spends time printing and parsing numbers, and no per-row strings are created.
// Layout: signature, flags, header extension; per row a field count and (length, bytes) per field;
// a -1 field count ends the stream. https://www.postgresql.org/docs/current/sql-copy.html

const SIGNATURE = Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1');
const POSTGRES_EPOCH_MS = Date.UTC(2000, 0, 1);
const DAY_MS = 86_400_000;

/** days since 2000-01-01, PostgreSQL's binary date */
export function postgresDate(isoDay: string): number {
  return Math.round((Date.parse(`${isoDay}T00:00:00Z`) - POSTGRES_EPOCH_MS) / DAY_MS);
}

// Bytes are written by hand: Buffer#writeInt32BE range-checks every call, and these run about
// 10^9 times for a million stores. Each returns the offset after what it wrote.

export function putFieldCount(buf: Buffer, pos: number, fields: number): number {
  buf[pos] = fields >>> 8;
  buf[pos + 1] = fields;
  return pos + 2;
}

/** an int4 field: length 4, then the value big-endian */
export function putInt4Field(buf: Buffer, pos: number, value: number): number {
  buf[pos] = 0;
  buf[pos + 1] = 0;
  buf[pos + 2] = 0;
  buf[pos + 3] = 4;
  buf[pos + 4] = value >>> 24;
  buf[pos + 5] = value >>> 16;
  buf[pos + 6] = value >>> 8;
  buf[pos + 7] = value;
  return pos + 8;
}

/** an int2 field: length 2, then the value big-endian */
export function putInt2Field(buf: Buffer, pos: number, value: number): number {
  buf[pos] = 0;
  buf[pos + 1] = 0;
  buf[pos + 2] = 0;
  buf[pos + 3] = 2;
  buf[pos + 4] = value >>> 8;
  buf[pos + 5] = value;
  return pos + 6;
}

export class BinaryCopyBuffer {
  readonly format = 'binary' as const;
  readonly pieces: Buffer[] = [];
  rows = 0;
  private buf: Buffer;
  private pos = 0;

  constructor(private readonly pieceSize = 1 << 22) {
    this.buf = Buffer.allocUnsafe(pieceSize);
    SIGNATURE.copy(this.buf, 0);
    this.pos = SIGNATURE.length;
    this.pos = this.buf.writeInt32BE(0, this.pos); // flags
    this.pos = this.buf.writeInt32BE(0, this.pos); // header extension length
  }

  /** starts a row of `fields` fields */
  row(fields: number): this {
    this.room(2);
    this.pos = putFieldCount(this.buf, this.pos, fields);
    this.rows++;
    return this;
  }

  int4(value: number): this {
    this.room(8);
    this.pos = putInt4Field(this.buf, this.pos, value);
    return this;
  }

  int2(value: number): this {
    this.room(6);
    this.pos = putInt2Field(this.buf, this.pos, value);
    return this;
  }

  /**
   * Direct access for hot loops (the daily history): makes room for `bytes` more bytes and returns
   * the offset to write at in `buffer`; report the end and the rows written with `wrote`.
   */
  reserve(bytes: number): number {
    this.room(bytes);
    return this.pos;
  }

  get buffer(): Buffer {
    return this.buf;
  }

  wrote(end: number, rows: number): void {
    this.pos = end;
    this.rows += rows;
  }

  /** a date as days since 2000-01-01 (postgresDate) */
  date(days: number): this {
    return this.int4(days);
  }

  float8(value: number): this {
    this.room(12);
    this.pos = this.buf.writeInt32BE(8, this.pos);
    this.pos = this.buf.writeDoubleBE(value, this.pos);
    return this;
  }

  text(value: string): this {
    const length = Buffer.byteLength(value, 'utf8');
    this.room(4 + length);
    this.pos = this.buf.writeInt32BE(length, this.pos);
    this.pos += this.buf.write(value, this.pos, 'utf8');
    return this;
  }

  /** the pieces with the end-of-data marker */
  finish(): Buffer[] {
    this.room(2);
    this.pos = this.buf.writeInt16BE(-1, this.pos);
    this.pieces.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.alloc(0);
    this.pos = 0;
    return this.pieces;
  }

  private room(bytes: number): void {
    if (this.pos + bytes <= this.buf.length) return;
    this.pieces.push(this.buf.subarray(0, this.pos));
    this.buf = Buffer.allocUnsafe(Math.max(this.pieceSize, bytes));
    this.pos = 0;
  }
}
