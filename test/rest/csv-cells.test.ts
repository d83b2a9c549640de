// CSV cells a spreadsheet would run as a formula are neutralised with a leading apostrophe, also
// when the formula character follows whitespace a spreadsheet skips or comes in a full-width or
// small form. Expected cells written out by hand (OWASP's CSV injection guidance).
import { describe, expect, it } from 'vitest';
import { csvLine } from '../../rest/export/csv.ts';

const NEUTRALISED: Array<[string, string, string]> = [
  ['a plain formula', '=1+1', "'=1+1"],
  ['a leading space', ' =1+1', "' =1+1"],
  ['leading spaces before @', '   @SUM(A1:A9)', "'   @SUM(A1:A9)"],
  [
    'a no-break space',
    '\u00a0=HYPERLINK("https://evil.test")',
    '"\'\u00a0=HYPERLINK(""https://evil.test"")"',
  ],
  ['an ideographic space', '\u3000+1', "'\u3000+1"],
  ['a zero-width space', '\u200b=1', "'\u200b=1"],
  ['a full-width equals sign', '\uff1d1+1', "'\uff1d1+1"],
  ['a full-width plus', '\uff0b1', "'\uff0b1"],
  ['a full-width minus', '\uff0d1', "'\uff0d1"],
  ['a full-width at', '\uff20SUM(A1)', "'\uff20SUM(A1)"],
  ['a small equals sign', '\ufe661+1', "'\ufe661+1"],
  ['a tab first', '\t=1', "'\t=1"],
];

const UNTOUCHED: Array<[string, string]> = [
  ['text', 'Acme Apparel'],
  ['an equals sign inside', 'a = b'],
  ['a leading space before text', ' Acme'],
];

describe('CSV cells', () => {
  it.each(NEUTRALISED)('neutralises %s', (_what, value, cell) => {
    expect(csvLine([value])).toBe(`${cell}\r\n`);
  });
  it.each(UNTOUCHED)('leaves %s as it is', (_what, value) => {
    expect(csvLine([value])).toBe(`${value}\r\n`);
  });
  it('leaves numbers alone (a negative number is a number, not a formula)', () => {
    expect(csvLine([-5, 0])).toBe('-5,0\r\n');
  });
});
