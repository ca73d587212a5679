import { describe, expect, it } from 'vitest';
import { toCsv } from '../../src/domain/csv.ts';

describe('toCsv', () => {
  it('quotes what needs quoting and ends lines with CRLF', () => {
    expect(toCsv(['a', 'b'], [['x, y', 'say "hi"'], [1.5, 'plain']])).toBe('a,b\r\n"x, y","say ""hi"""\r\n1.5,plain\r\n');
  });

  it('keeps text a spreadsheet would run as a formula as text, but not negative amounts', () => {
    expect(toCsv(['name'], [['=HYPERLINK("http://x")'], ['+1'], ['@SUM(A1)'], ['-12.50'], ['-not a number']])).toBe(
      `name\r\n"'=HYPERLINK(""http://x"")"\r\n'+1\r\n'@SUM(A1)\r\n-12.50\r\n'-not a number\r\n`,
    );
  });
});
