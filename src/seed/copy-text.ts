// PostgreSQL COPY ... FROM STDIN text format: one line per row, columns separated by tabs, \N for
// NULL, backslash, tab, newline and carriage return escaped with a backslash.

const NEEDS_ESCAPE = /[\\\t\n\r]/;

export function copyText(value: string): string {
  if (!NEEDS_ESCAPE.test(value)) return value;
  return value.replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

export const NULL = '\\N';

export const textOrNull = (value: string | null): string =>
  value === null ? NULL : copyText(value);
export const numberOrNull = (value: number | null): string =>
  value === null ? NULL : String(value);
export const bool = (value: boolean): string => (value ? 't' : 'f');

/** Collects rows of one table into pieces of about `pieceSize` characters, ready to write to COPY. */
export class CopyBuffer {
  readonly format = 'text' as const;
  readonly pieces: string[] = [];
  rows = 0;
  private current: string[] = [];
  private currentSize = 0;

  constructor(private readonly pieceSize = 1 << 20) {}

  /** a row whose values are already encoded (copyText, NULL, numbers) */
  row(line: string): void {
    this.current.push(line);
    this.currentSize += line.length + 1;
    this.rows++;
    if (this.currentSize >= this.pieceSize) this.flush();
  }

  /** the pieces, the last partial one included */
  finish(): string[] {
    this.flush();
    return this.pieces;
  }

  private flush(): void {
    if (this.current.length === 0) return;
    this.pieces.push(`${this.current.join('\n')}\n`);
    this.current = [];
    this.currentSize = 0;
  }
}
