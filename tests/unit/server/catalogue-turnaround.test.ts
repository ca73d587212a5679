import { describe, expect, it } from 'vitest';
import { parseCatalogueFile } from '../../../server/catalogue/catalogue-file.ts';
import { DEFAULT_TURNAROUND } from '../../../src/domain/turnaround.ts';

const file = (extra: Record<string, unknown> = {}) => ({
  name: 'Turnaround test',
  papers: [{ name: 'Lustre', print_sizes: [{ name: '8x10', x_aspect: 4, y_aspect: 5, price: 3.1 }] }],
  ...extra,
});

describe("the catalogue file's turnaround and holidays", () => {
  it('defaults to the lab default when the file has none', () => {
    expect(parseCatalogueFile(file()).turnaround).toEqual(DEFAULT_TURNAROUND);
  });

  it('takes whole business days per product family', () => {
    const turnaround = { prints: 1, mounted: 2, canvas: 5, framed: 8 };
    expect(parseCatalogueFile(file({ turnaround })).turnaround).toEqual(turnaround);
  });

  it('takes the lab\'s holidays as real calendar days', () => {
    expect(parseCatalogueFile(file()).holidays).toEqual([]);
    expect(parseCatalogueFile(file({ holidays: ['2026-12-25', '2027-01-01'] })).holidays).toEqual(['2026-12-25', '2027-01-01']);
    expect(() => parseCatalogueFile(file({ holidays: ['2026-02-30'] }))).toThrow(/holidays\.0: a holiday is a date written YYYY-MM-DD/);
    expect(() => parseCatalogueFile(file({ holidays: ['Christmas'] }))).toThrow(/a holiday is a date/);
  });

  it('refuses a family it does not know, a missing one, and days out of range', () => {
    expect(() => parseCatalogueFile(file({ turnaround: { ...DEFAULT_TURNAROUND, albums: 9 } }))).toThrow(/turnaround/);
    expect(() => parseCatalogueFile(file({ turnaround: { prints: 1, mounted: 2, canvas: 3 } }))).toThrow(/turnaround\.framed/);
    expect(() => parseCatalogueFile(file({ turnaround: { ...DEFAULT_TURNAROUND, prints: 0 } }))).toThrow(/at least 1 business day/);
    expect(() => parseCatalogueFile(file({ turnaround: { ...DEFAULT_TURNAROUND, canvas: 2.5 } }))).toThrow(/whole business days/);
    expect(() => parseCatalogueFile(file({ turnaround: { ...DEFAULT_TURNAROUND, framed: 99 } }))).toThrow(/at most 15 business days/);
  });
});
