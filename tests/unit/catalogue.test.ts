import { describe, expect, it } from 'vitest';
import {
  INCOMPLETE_FINISHING_MESSAGE,
  borderLabel,
  calculatorGroups,
  cheapestFinishingCents,
  finishingChoiceCents,
  finishingChoiceProblem,
  formatFrameProfile,
  frameProfileWords,
  optionOneLabel,
  requiredDetails,
} from '../../src/domain/catalogue.ts';
import type { FinishingService } from '../../src/contract/catalogue.ts';

const frame: FinishingService = {
  guid: 'f1',
  name: 'Walnut 1.5"',
  price: 89.5,
  finishing_category: 'hardwood_frame',
  frame_profile: ' 1.5',
  formatted_frame_profile: '-1.5',
  detail_pricings: {
    frame_mat: [
      { guid: 'm0', name: 'No Mat', price: 0, is_default: true },
      { guid: 'm1', name: 'White 4-Ply Mat', price: 13, is_default: false },
    ],
    glass: [
      { guid: 'g0', name: 'ACRYLIC', price: 0, is_default: true },
      { guid: 'g1', name: 'Museum Acrylic', price: 18.5, is_default: false },
    ],
    stain: [
      { guid: 's0', name: 'Natural', price: 0, is_default: true },
      { guid: 's1', name: 'Espresso', price: 12, is_default: false },
    ],
  },
};

describe('finishing rules', () => {
  it('names what each category needs, in the order it is chosen', () => {
    expect(requiredDetails('none')).toEqual([]);
    expect(requiredDetails('four_ply_mat')).toEqual([]);
    expect(requiredDetails('mount')).toEqual(['mount_color']);
    expect(requiredDetails('contemporary_frame')).toEqual(['frame_mat', 'glass']);
    for (const c of ['hardwood_frame', 'desktop_frame', 'hardwood_float_canvas_frame'] as const) expect(requiredDetails(c)).toEqual(['frame_mat', 'glass', 'stain']);
  });

  it('lets mats take a MAT CLASS without needing one', async () => {
    const { optionalDetails, allowedDetails } = await import('../../src/domain/catalogue.ts');
    expect(optionalDetails('four_ply_mat')).toEqual(['mat_class']);
    expect(optionalDetails('hardwood_frame')).toEqual([]);
    expect(allowedDetails('mount')).toEqual(['mount_color']);
    const mat: FinishingService = {
      ...frame,
      guid: 'mat',
      finishing_category: 'four_ply_mat',
      price: 9,
      detail_pricings: { mat_class: [{ guid: 'c2', name: 'Museum', price: 4, is_default: false }] },
    };
    expect(finishingChoiceCents({ service: mat, details: {} })).toBe(900);
    expect(finishingChoiceCents({ service: mat, details: { mat_class: 'c2' } })).toBe(1300);
    expect(finishingChoiceProblem({ service: mat, details: { mat_class: 'nope' } })).toMatch(/MAT CLASS is not offered/);
  });

  it('labels the first choice as the builder does', () => {
    expect(optionOneLabel('eight_ply_mat')).toBe('MAT SIZE');
    expect(optionOneLabel('desktop_frame')).toBe('FRAME WOOD');
    expect(optionOneLabel('mount')).toBe('MOUNT SIZE');
    expect(optionOneLabel('none')).toBe('FINISHING DETAIL');
  });

  it('prices a complete choice and refuses an incomplete or foreign one', () => {
    expect(finishingChoiceCents({ service: frame, details: { frame_mat: 'm1', glass: 'g1', stain: 's1' } })).toBe(8950 + 1300 + 1850 + 1200);
    expect(finishingChoiceProblem({ service: frame, details: { frame_mat: 'm1', glass: 'g1' } })).toBe(INCOMPLETE_FINISHING_MESSAGE);
    expect(finishingChoiceProblem({ service: frame, details: { frame_mat: 'm1', glass: 'g1', stain: 'elsewhere' } })).toMatch(/FRAME STAIN is not offered/);
    expect(finishingChoiceProblem({ service: frame, details: { frame_mat: 'm0', glass: 'g0', stain: 's0', mount_color: 'x' } })).toMatch(/takes no MOUNT COLOR/);
    expect(() => finishingChoiceCents({ service: frame, details: {} })).toThrow(RangeError);
    expect(cheapestFinishingCents(frame)).toBe(8950);
  });

  it("gathers categories into the calculator's groups", () => {
    const mount: FinishingService = { ...frame, guid: 'mt', finishing_category: 'mount', detail_pricings: {} };
    const groups = calculatorGroups([
      { finishing_category: 'hardwood_frame', services: [frame] },
      { finishing_category: 'mount', services: [mount] },
    ]);
    expect(Object.keys(groups)).toEqual(['mount', 'premium_frame']);
    expect(groups.premium_frame).toEqual([frame]);
  });

  it('reads borders and frame profiles as the spec shows them', () => {
    expect(borderLabel('one_eighth')).toBe('1/8" border');
    expect(borderLabel('one_and_one_half')).toBe('1 1/2" border');
    expect(borderLabel('seven')).toBe('No border');
    expect(formatFrameProfile(' 3/4')).toBe('-.75');
    expect(formatFrameProfile(' 1.5')).toBe('-1.5');
    expect(formatFrameProfile(null)).toBeNull();
  });

  it('says a frame profile in words from the catalogue string or its short code', () => {
    for (const raw of [' 1.5', '-1.5']) expect(frameProfileWords(raw)).toBe('1.5" profile');
    for (const raw of [' 3/4', '-.75']) expect(frameProfileWords(raw)).toBe('3/4" profile');
    expect(frameProfileWords(' 2')).toBe('2" profile');
    expect(frameProfileWords('deep')).toBe('deep profile');
    expect(frameProfileWords(null)).toBeNull();
    expect(frameProfileWords('  ')).toBeNull();
  });
});
