// The domains of an import file (`npm run catalog -- import FILE`): one domain or URL a line, or a
// CSV. A first row naming a domain column the way exports name it (Store Leads, BuiltWith,
// spreadsheets: `domain`, `Domain Name`, `Store URL`, `url`, `website`, any case, spaces or `_`) is
// a header, even with one column; otherwise a CSV whose first cell is not a domain has a header and
// its first column is read. Blank lines and lines starting with # are skipped. Every value goes
// through the catalog's one domain parser, so "https://www.Shop.com/x" and "shop.com" are the same
// store; duplicates are counted once, and synthetic (.example) names are refused.
import { isSyntheticDomain, parseDomain } from '../stores/domain.ts';

export interface ImportParse {
  domains: string[];
  /** values that are not domains, with the line they were on and why */
  invalid: Array<{ line: number; value: string; rule: string }>;
  duplicates: number;
}

/** Header names of a domain column, best first: a file with both `Domain` and `Website` is read by `Domain`. */
const DOMAIN_COLUMNS = [
  'domain',
  'domain name',
  'store domain',
  'shop domain',
  'website domain',
  'root domain',
  'store url',
  'shop url',
  'website url',
  'site url',
  'homepage url',
  'url',
  'website',
  'homepage',
  'store',
  'shop',
  'site',
];

/** A header cell as compared: lower case, `_` and `-` as spaces, spaces collapsed. */
const headerName = (cell: string) =>
  cell.toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();

/** The index of the domain column named in `cells`, or -1. */
function domainColumn(cells: readonly string[]): number {
  const names = cells.map(headerName);
  for (const wanted of DOMAIN_COLUMNS) {
    const index = names.indexOf(wanted);
    if (index >= 0) return index;
  }
  return -1;
}

/** Splits one CSV line (RFC 4180 quoting: "a, b" and "" inside quotes). */
export function csvFields(line: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else field += c;
  }
  fields.push(field);
  return fields.map((f) => f.trim());
}

export function parseImport(text: string): ImportParse {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n/);
  const firstRow = lines.findIndex((line) => line.trim() !== '' && !line.trim().startsWith('#'));
  const isCsv = firstRow >= 0 && lines[firstRow]!.includes(',');
  let column = 0;
  let start = firstRow;
  if (firstRow >= 0) {
    const header = isCsv ? csvFields(lines[firstRow]!) : [lines[firstRow]!.trim()];
    const named = domainColumn(header);
    // a named domain column is a header; so is a CSV first row whose first cell is not a domain
    if (named >= 0 || (isCsv && !parseDomain(header[0] ?? '').ok)) {
      column = Math.max(0, named);
      start = firstRow + 1;
    }
  }
  const seen = new Set<string>();
  const result: ImportParse = { domains: [], invalid: [], duplicates: 0 };
  if (firstRow < 0) return result;
  for (let i = start; i < lines.length; i++) {
    const line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    const value = isCsv ? (csvFields(line)[column] ?? '') : line;
    const parsed = parseDomain(value);
    if (!parsed.ok) {
      result.invalid.push({ line: i + 1, value, rule: parsed.rule });
    } else if (isSyntheticDomain(parsed.domain)) {
      result.invalid.push({
        line: i + 1,
        value,
        rule: 'is a synthetic (.example) store, never contacted',
      });
    } else if (seen.has(parsed.domain)) {
      result.duplicates++;
    } else {
      seen.add(parsed.domain);
      result.domains.push(parsed.domain);
    }
  }
  return result;
}
