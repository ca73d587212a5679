import { describe, expect, it } from 'vitest';
import { compactCalculatorCatalogue, optionKey } from '../../../server/services/calculator-catalogue.ts';
import { preferredCoding } from '../../../server/http/cached-answer.ts';
import { expandCalculatorCatalogue, isCalculatorCatalogue } from '../../../src/client-rules/calculator-catalogue.ts';
import type { FinishingGroup, FinishingService, Paper } from '../../../src/contract/catalogue.ts';

const glass = (sizeGuid: string) => [
  { guid: `${sizeGuid}-g0`, name: 'ACRYLIC', price: 0, is_default: true },
  { guid: `${sizeGuid}-g1`, name: 'Museum Acrylic', price: 18.5, is_default: false },
];
const frame = (sizeGuid: string, n: number): FinishingService => ({
  guid: `${sizeGuid}-frame-${n}`,
  name: `Walnut ${n}`,
  price: 80,
  finishing_category: 'hardwood_frame',
  frame_profile: ' 1.5',
  formatted_frame_profile: '-1.5',
  detail_pricings: {
    frame_mat: [{ guid: `${sizeGuid}-m0`, name: 'No Mat', price: 0, is_default: true }],
    glass: glass(sizeGuid),
    stain: [{ guid: `${sizeGuid}-s0`, name: 'Natural', price: 0, is_default: true }],
  },
});
const mount = (sizeGuid: string): FinishingService => ({
  guid: `${sizeGuid}-mount`,
  name: 'Flush Mount',
  price: 4,
  finishing_category: 'mount',
  frame_profile: null,
  formatted_frame_profile: null,
  detail_pricings: { mount_color: [{ guid: `${sizeGuid}-black`, name: 'Black', price: 0, is_default: true }] },
});

const sizes = ['a', 'b', 'c'];
const papers: Paper[] = [
  { guid: 'p1', name: 'Lustre', allows_border: true, icc_profile: null, print_size_pricings: sizes.map((g) => ({ guid: g, name: '8x10', price: 3.1, x_aspect: 8, y_aspect: 10 })) },
];
const groups = (guid: string): FinishingGroup[] => [
  { finishing_category: 'mount', services: [mount(guid)] },
  { finishing_category: 'hardwood_frame', services: [frame(guid, 1), frame(guid, 2)] },
];

describe("the calculator's compact catalogue", () => {
  it('sends each distinct finishing and choice once, however many print sizes offer it', () => {
    const wire = compactCalculatorCatalogue(papers, groups);
    expect(Object.keys(wire.finishing)).toHaveLength(3);
    // No Mat, ACRYLIC, Museum Acrylic, Natural, Black.
    expect(Object.keys(wire.options)).toHaveLength(5);
    expect(wire.data[0]?.print_size_pricings[1]?.calculator_groups.premium_frame).toEqual([
      { guid: 'b-frame-1', finishing: expect.any(String) },
      { guid: 'b-frame-2', finishing: expect.any(String) },
    ]);
    expect(JSON.stringify(wire).length).toBeLessThan(JSON.stringify(sizes.map(groups)).length);
  });

  it('unfolds to the same services, each choice known by its option key', () => {
    const wire = compactCalculatorCatalogue(papers, groups);
    expect(isCalculatorCatalogue(wire)).toBe(true);
    const size = expandCalculatorCatalogue(wire)[0]?.print_size_pricings[2];
    const expected = frame('c', 2);
    const unfolded = size?.calculator_groups.premium_frame?.[1];
    expect(unfolded).toEqual({
      ...expected,
      detail_pricings: {
        frame_mat: expected.detail_pricings.frame_mat?.map((d) => ({ ...d, guid: optionKey('frame_mat', d) })),
        glass: expected.detail_pricings.glass?.map((d) => ({ ...d, guid: optionKey('glass', d) })),
        stain: expected.detail_pricings.stain?.map((d) => ({ ...d, guid: optionKey('stain', d) })),
      },
    });
    expect(size?.calculator_groups.mount?.map((s) => s.guid)).toEqual(['c-mount']);
    expect(Object.keys(size?.calculator_groups ?? {})).toEqual(['mount', 'premium_frame']);
  });

  it('keys a choice by its kind and content: the same name at another price is another option', () => {
    const base = { name: 'Museum Acrylic', price: 18.5, is_default: false };
    expect(optionKey('glass', base)).toBe(optionKey('glass', { ...base }));
    expect(optionKey('glass', { ...base, price: 24 })).not.toBe(optionKey('glass', base));
    expect(optionKey('frame_mat', base)).not.toBe(optionKey('glass', base));
  });

  it('tells an offline copy of the old shape from the new one', () => {
    expect(isCalculatorCatalogue({ data: [] })).toBe(false);
    expect(isCalculatorCatalogue(null)).toBe(false);
  });
});

describe('choosing a content coding', () => {
  it('prefers brotli, then gzip, honouring q-values and refusals', () => {
    expect(preferredCoding(undefined)).toBe('identity');
    expect(preferredCoding('gzip, deflate, br, zstd')).toBe('br');
    expect(preferredCoding('gzip')).toBe('gzip');
    expect(preferredCoding('br;q=0.2, gzip;q=0.8')).toBe('gzip');
    expect(preferredCoding('br;q=0, gzip;q=0')).toBe('identity');
    expect(preferredCoding('*')).toBe('br');
    expect(preferredCoding('identity')).toBe('identity');
    expect(preferredCoding('deflate')).toBe('identity');
  });
});
