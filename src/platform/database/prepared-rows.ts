// Rows of a named prepared statement, built from what its first execution described. pg's Result
// rebuilds a statement's column parsers and a prototype row (an object in V8's slow dictionary
// mode) at every execution, then copies that prototype for each row, work that grows with a wide
// row's columns. A prepared statement's columns do not change between executions (PostgreSQL
// refuses to run it once they would), so here they are worked out once per statement name, and
// a connection describes each statement once: its later executions bind and execute only, without
// pg's Describe and the row description PostgreSQL answers it with. Each row is one object literal
// of a compiled shape. Every other query (unnamed, array rows, custom types, binary columns) runs
// through pg's own Query unchanged.
import { createRequire } from 'node:module';
import pg from 'pg';

/** A column as PostgreSQL's RowDescription describes it (pg-protocol's Field). */
interface Column {
  name: string;
  dataTypeID: number;
  format: string;
}

type Parser = (value: string) => unknown;

interface RowShape {
  columns: readonly Column[];
  parsers: readonly Parser[];
  /** the row object of one DataRow's text values */
  build: (
    values: ReadonlyArray<string | null>,
    parsers: readonly Parser[],
  ) => Record<string, unknown>;
}

interface TypeSource {
  getTypeParser(oid: number, format: 'text'): Parser;
}

/** What pg.Query keeps of a query in progress (private to pg; pinned through package-lock.json). */
interface QueryInternals {
  name?: string;
  _result: { fields: Column[]; rows: unknown[]; _types?: TypeSource };
  _canceledDueToError: unknown;
}

/** A connection as pg.Query's prepare writes to it (pg's Connection). */
interface Connection {
  bind(config: object): void;
  close(config: object): void;
  sync(): void;
}

/** What pg.Query's prepare reads and calls (private to pg; pinned through package-lock.json). */
interface PreparingQuery {
  portal?: string;
  values?: unknown[];
  binary?: boolean;
  rows?: number;
  prepare(connection: Connection): void;
  hasBeenParsed(connection: Connection): boolean;
  handleError(error: unknown, connection: Connection): void;
  _getRows(connection: Connection, rows?: number): void;
}

// pg's own text of a parameter, as its prepare hands values to bind
const { prepareValue } = createRequire(import.meta.url)('pg/lib/utils.js') as {
  prepareValue: (value: unknown) => unknown;
};

const shapes = new Map<string, RowShape>();

/** What a connection's Describe of a statement found: the row shape, and the fields pg reports in a result. */
interface Described {
  shape: RowShape;
  fields: Column[];
}

/** Per connection, the statements it has described, by name. */
const describedOn = new WeakMap<Connection, Map<string, Described>>();

const sameColumns = (a: readonly Column[], b: readonly Column[]) =>
  a.length === b.length &&
  a.every(
    (column, i) =>
      column.name === b[i]!.name &&
      column.dataTypeID === b[i]!.dataTypeID &&
      column.format === b[i]!.format,
  );

/**
 * One object literal per row: V8 gives every row of the statement the same fast shape. Column names
 * are the statement's own (our SQL's aliases), written as JSON string literals; a later column of
 * the same name wins, as in pg's rows.
 */
function compileRow(columns: readonly Column[]): RowShape['build'] {
  const properties = columns.map(
    (column, i) => `${JSON.stringify(column.name)}: v[${i}] === null ? null : p[${i}](v[${i}])`,
  );
  return new Function('v', 'p', `return { ${properties.join(', ')} };`) as RowShape['build'];
}

/** The statement's shape, or undefined when pg's own rows must serve (binary columns, a column named __proto__). */
function shapeOf(name: string, columns: Column[], types: TypeSource): RowShape | undefined {
  const known = shapes.get(name);
  if (known && sameColumns(known.columns, columns)) return known;
  if (columns.some((column) => column.format !== 'text' || column.name === '__proto__'))
    return undefined;
  const shape: RowShape = {
    columns: columns.map(({ name: column, dataTypeID, format }) => ({
      name: column,
      dataTypeID,
      format,
    })),
    parsers: columns.map((column) => types.getTypeParser(column.dataTypeID, 'text')),
    build: compileRow(columns),
  };
  shapes.set(name, shape);
  return shape;
}

/** pg.Query with rows built from the statement's shape; everything else (prepare, bind, errors, results) is pg's. */
class PreparedRowsQuery extends pg.Query {
  private shape: RowShape | undefined;
  /** the connection it runs on, where its description is kept */
  private connection: Connection | undefined;

  constructor(name: string, text: string, values: unknown[] | undefined, callback: QueryCallback) {
    // handed the text rather than the config object: pg copies a config object through its property
    // descriptors, a cost per query of its own; a name, text and values are all this query has
    super(text, values, callback);
    (this as unknown as QueryInternals).name = name;
  }

  /** pg's prepare; once this connection has described the statement, without its Describe. */
  prepare(connection: Connection): void {
    const self = this as unknown as QueryInternals & PreparingQuery;
    this.connection = connection;
    const described = describedOn.get(connection)?.get(self.name!);
    if (!described || !self.hasBeenParsed(connection))
      return (pg.Query.prototype as unknown as PreparingQuery).prepare.call(this, connection);
    this.shape = described.shape;
    self._result.fields = described.fields;
    try {
      connection.bind({
        portal: self.portal,
        statement: self.name,
        values: self.values,
        binary: self.binary,
        valueMapper: prepareValue,
      });
    } catch (error) {
      // as pg does: a value it cannot send fails the query before anything runs
      connection.close({ type: 'S', name: self.name });
      connection.sync();
      self.handleError(error, connection);
      return;
    }
    self._getRows(connection, self.rows);
  }

  handleRowDescription(message: { fields: Column[] }): void {
    const self = this as unknown as QueryInternals;
    this.shape = shapeOf(self.name!, message.fields, self._result._types ?? pg.types);
    if (!this.shape)
      return (
        pg.Query.prototype as unknown as { handleRowDescription(m: unknown): void }
      ).handleRowDescription.call(this, message);
    self._result.fields = message.fields;
    if (!this.connection) return;
    let described = describedOn.get(this.connection);
    if (!described) describedOn.set(this.connection, (described = new Map()));
    described.set(self.name!, { shape: this.shape, fields: message.fields });
  }

  handleDataRow(message: { fields: Array<string | null> }): void {
    const shape = this.shape;
    if (!shape)
      return (
        pg.Query.prototype as unknown as { handleDataRow(m: unknown): void }
      ).handleDataRow.call(this, message);
    const self = this as unknown as QueryInternals;
    if (self._canceledDueToError) return;
    try {
      self._result.rows.push(shape.build(message.fields, shape.parsers));
    } catch (error) {
      // as pg does: the statement runs to its end, then the query fails with this error
      self._canceledDueToError = error;
    }
  }
}

type QueryCallback = (error: Error | undefined, result: pg.QueryResult) => void;

/** A config of a name, a text and values alone (no row mode, types, portal, row count, binary or query mode). */
function isPlainPreparedStatement(
  config: unknown,
): config is { name: string; text: string; values?: unknown[] } {
  if (
    typeof config !== 'object' ||
    config === null ||
    Object.getPrototypeOf(config) !== Object.prototype
  )
    return false;
  const { name, text } = config as Record<string, unknown>;
  if (typeof name !== 'string' || name === '' || typeof text !== 'string') return false;
  for (const key in config) if (key !== 'name' && key !== 'text' && key !== 'values') return false;
  return true;
}

/**
 * The raw pools' client (pg.Pool's `Client` option): a named statement's query, given as a config
 * object without its own row mode or types, runs as a PreparedRowsQuery.
 */
export class PreparedRowsClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [config, second, third] = args as [unknown, unknown, unknown];
    if (!isPlainPreparedStatement(config))
      return (super.query as (...a: unknown[]) => never)(...args);
    const callback = (typeof second === 'function' ? second : third) as QueryCallback | undefined;
    // as pg reads them: values given beside the config win over its own
    const values = Array.isArray(second) ? second : config.values;
    if (callback) {
      super.query(new PreparedRowsQuery(config.name, config.text, values, callback));
      return undefined as never;
    }
    return new Promise<pg.QueryResult>((resolve, reject) => {
      super.query(
        new PreparedRowsQuery(config.name, config.text, values, (error, result) =>
          error ? reject(error) : resolve(result),
        ),
      );
    }) as never;
  }
}
