import { describe, expect, it } from 'vitest';
import {
  BRUSHED_CANVAS_NEEDS_FINISHING,
  CROP_CHECK,
  CROP_CHECK_TEXT,
  FINISHING_LOADING,
  FINISHING_NOT_OFFERED,
  addToCartLabel,
  addToCartProblem,
  addToCartStep,
  needsCropCheck,
  selectionCents,
  showsAddToCart,
  type AddToCartInput,
} from '../../src/domain/add-to-cart.ts';
import { PAPER_AND_SIZE_FIRST, PAPER_FIRST, SELECT_PHOTO_FIRST } from '../../src/domain/builder-gating.ts';
import { builderReducer, type BuilderAction } from '../../src/features/order-builder/builder-reducer.ts';
import { INITIAL_SELECTIONS, type Selections } from '../../src/domain/builder-selections.ts';
import { INCOMPLETE_FINISHING_MESSAGE } from '../../src/domain/catalogue.ts';
import { resolutionCheck } from '../../src/domain/print-resolution.ts';
import { brushedCanvas, contemporary, groups8x10, hardwood, lustre, mat, mount } from './fixtures/builder-catalogue.ts';

const run = (...actions: BuilderAction[]): Selections => actions.reduce(builderReducer, INITIAL_SELECTIONS);
const sized = (paper = lustre, size = 'size-8x10'): BuilderAction[] => [
  { type: 'togglePhoto', photoGuid: 'p1' },
  { type: 'paper', paper },
  { type: 'printSize', printSizeGuid: size },
];
const category = (c: Selections['finishingCategory']): BuilderAction => ({ type: 'finishingCategory', category: c });
const one = (guid: string): BuilderAction => ({ type: 'finishingOptionOne', guid });
const two = (guid: string): BuilderAction => ({ type: 'finishingOptionTwo', guid });

describe('add-to-cart validation (docs/orders.md §5)', () => {
  it('shows the button only once a print size is chosen, labelled ADD TO CART or UPDATE', () => {
    expect(showsAddToCart(run(...sized().slice(0, 2)))).toBe(false);
    expect(showsAddToCart(run(...sized()))).toBe(true);
    expect(addToCartLabel(false)).toBe('ADD TO CART');
    expect(addToCartLabel(true)).toBe('UPDATE');
  });

  it.each([
    ['no photo', [], lustre, SELECT_PHOTO_FIRST],
    ['no paper', [{ type: 'togglePhoto', photoGuid: 'p1' }], null, PAPER_FIRST],
    ['no print size', sized().slice(0, 2), lustre, PAPER_AND_SIZE_FIRST],
    ['no finishing chosen', sized(), lustre, null],
    ['NONE', [...sized(), category('none')], lustre, null],
    ['Brushed Canvas without a category', sized(brushedCanvas, 'size-bc-8x10'), brushedCanvas, BRUSHED_CANVAS_NEEDS_FINISHING],
    ['a mat size', [...sized(), category('four_ply_mat'), one(mat.guid)], lustre, null],
    ['a mat category without its size', [...sized(), category('four_ply_mat')], lustre, INCOMPLETE_FINISHING_MESSAGE],
    ['a mount without colour', [...sized(), category('mount'), one(mount.guid)], lustre, INCOMPLETE_FINISHING_MESSAGE],
    ['a mount with colour', [...sized(), category('mount'), one(mount.guid), two('mc-white')], lustre, null],
    ['a frame without glass', [...sized(), category('contemporary_frame'), one(contemporary.guid), two('cf-white')], lustre, INCOMPLETE_FINISHING_MESSAGE],
    [
      'a contemporary frame complete',
      [...sized(), category('contemporary_frame'), one(contemporary.guid), two('cf-white'), { type: 'frameGlass', guid: 'cf-acrylic' }],
      lustre,
      null,
    ],
    [
      'a hardwood frame without stain',
      [...sized(), category('hardwood_frame'), one(hardwood.guid), two('hw-white'), { type: 'frameGlass', guid: 'hw-acrylic' }],
      lustre,
      INCOMPLETE_FINISHING_MESSAGE,
    ],
    ['a service the size does not offer', [...sized(), category('hardwood_frame'), one('gone')], lustre, FINISHING_NOT_OFFERED],
  ] as [string, BuilderAction[], typeof lustre | null, string | null][])('%s → %j', (_, actions, paper, problem) => {
    expect(addToCartProblem(run(...actions), paper, groups8x10)).toBe(problem);
  });

  it('names a detail that is not the service’s, and waits for options still loading', () => {
    const s = run(...sized(), category('mount'), one(mount.guid), two('cf-white'));
    expect(addToCartProblem(s, lustre, groups8x10)).toBe('That MOUNT COLOR is not offered with 8x10 Flush Mount.');
    expect(addToCartProblem(run(...sized(), category('mount'), one(mount.guid)), lustre, null)).toBe(FINISHING_LOADING);
  });

  it('keeps the spec’s incomplete-finishing and crop-check texts', () => {
    expect(INCOMPLETE_FINISHING_MESSAGE).toContain('or set the finishing category to NONE');
    expect(CROP_CHECK_TEXT).toBe('Are you sure? WAIT! Before adding to cart, check your cropping selections on all photos.');
    expect([CROP_CHECK.checkCrop, CROP_CHECK.looksGood]).toEqual(['Check Crop', 'Looks Good']);
  });
});

describe('the steps of pressing ADD TO CART', () => {
  const ready = run(...sized(), category('none'));
  const input = (over: Partial<AddToCartInput>): AddToCartInput => ({
    selections: ready,
    paper: lustre,
    groups: groups8x10,
    lineItemCount: 0,
    editing: false,
    cropCheckAnswered: false,
    lowResolutionAccepted: false,
    resolution: resolutionCheck(320, '8x10'),
    ...over,
  });

  it('asks for the crop check before the first line item only, never when updating', () => {
    expect(needsCropCheck(0, false)).toBe(true);
    expect(needsCropCheck(3, false)).toBe(false);
    expect(needsCropCheck(0, true)).toBe(false);
    expect(addToCartStep(input({}))).toEqual({ kind: 'confirmCrop' });
    expect(addToCartStep(input({ cropCheckAnswered: true }))).toEqual({ kind: 'add' });
    expect(addToCartStep(input({ lineItemCount: 2 }))).toEqual({ kind: 'add' });
  });

  it('alerts before anything else, then the crop check, then the resolution confirmation', () => {
    expect(addToCartStep(input({ selections: INITIAL_SELECTIONS }))).toEqual({ kind: 'alert', message: SELECT_PHOTO_FIRST });
    const low = resolutionCheck(80, '8x10');
    expect(addToCartStep(input({ resolution: low }))).toEqual({ kind: 'confirmCrop' });
    expect(addToCartStep(input({ resolution: low, cropCheckAnswered: true }))).toEqual({ kind: 'confirmResolution', message: low.message });
    expect(addToCartStep(input({ resolution: low, cropCheckAnswered: true, lowResolutionAccepted: true }))).toEqual({ kind: 'add' });
    // A warning alone (100–199 ppi) does not stop the add; an unknown resolution neither.
    expect(addToCartStep(input({ resolution: resolutionCheck(150, '8x10'), lineItemCount: 1 }))).toEqual({ kind: 'add' });
    expect(addToCartStep(input({ resolution: null, lineItemCount: 1 }))).toEqual({ kind: 'add' });
  });
});

describe('what the selection costs', () => {
  it('is (print + finishing) × quantity for each photo, or null until it can be priced', () => {
    const size = lustre.print_size_pricings[0]!;
    const twoPhotos: BuilderAction[] = [{ type: 'selectAllPhotos', photoGuids: ['p1', 'p2'] }, { type: 'paper', paper: lustre }, { type: 'printSize', printSizeGuid: size.guid }];
    expect(selectionCents(run(...twoPhotos, { type: 'quantityTyped', text: '3' }), size, groups8x10)).toBe(310 * 3 * 2);
    const framed = run(
      ...twoPhotos,
      category('hardwood_frame'),
      one(hardwood.guid),
      two('hw-white'),
      { type: 'frameGlass', guid: 'hw-acrylic' },
      { type: 'frameStain', guid: 'hw-espresso' },
    );
    expect(selectionCents(framed, size, groups8x10)).toBe((310 + 9250 + 900 + 0 + 1200) * 2);
    expect(selectionCents(run(...twoPhotos, category('hardwood_frame'), one(hardwood.guid)), size, groups8x10)).toBeNull();
    expect(selectionCents(run(...twoPhotos), null, groups8x10)).toBeNull();
    expect(selectionCents(INITIAL_SELECTIONS, size, groups8x10)).toBeNull();
  });
});
