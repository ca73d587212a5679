import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { optionTwoKind, optionTwoLabel } from '../../src/domain/catalogue.ts';
import {
  PAPER_AND_SIZE_FIRST,
  PAPER_FIRST,
  SELECT_PHOTO_FIRST,
  blockedBecause,
  chosenDetailGuids,
  finishingChoice,
  finishingDropdowns,
  menuHeightPx,
  offeredCategories,
  offersBorder,
  showsFinishingField,
} from '../../src/domain/builder-gating.ts';
import { builderReducer, type BuilderAction } from '../../src/features/order-builder/builder-reducer.ts';
import { INITIAL_SELECTIONS, isFlipped, photoCrop, type Selections } from '../../src/domain/builder-selections.ts';
import { brushedCanvas, contemporary, groups8x10, hardwood, lustre, mat, mount } from './fixtures/builder-catalogue.ts';

const run = (...actions: BuilderAction[]): Selections => actions.reduce(builderReducer, INITIAL_SELECTIONS);
const withSize: BuilderAction[] = [
  { type: 'togglePhoto', photoGuid: 'p1' },
  { type: 'paper', paper: lustre },
  { type: 'printSize', printSizeGuid: 'size-8x10' },
];
const framed: BuilderAction[] = [
  ...withSize,
  { type: 'finishingCategory', category: 'hardwood_frame' },
  { type: 'finishingOptionOne', guid: hardwood.guid },
  { type: 'finishingOptionTwo', guid: 'hw-white' },
  { type: 'frameGlass', guid: 'hw-acrylic' },
  { type: 'frameStain', guid: 'hw-espresso' },
];

describe('builder gating (docs/orders.md §4)', () => {
  it('paper needs a photo, print size needs paper, finishing needs paper and size', () => {
    expect(blockedBecause('paper', INITIAL_SELECTIONS)).toBe(SELECT_PHOTO_FIRST);
    expect(blockedBecause('printSize', INITIAL_SELECTIONS)).toBe(SELECT_PHOTO_FIRST);
    const photo = run({ type: 'togglePhoto', photoGuid: 'p1' });
    expect(blockedBecause('paper', photo)).toBeNull();
    expect(blockedBecause('printSize', photo)).toBe(PAPER_FIRST);
    expect(blockedBecause('border', photo)).toBe(PAPER_FIRST);
    expect(blockedBecause('finishing', photo)).toBe(PAPER_AND_SIZE_FIRST);
    const paper = builderReducer(photo, { type: 'paper', paper: lustre });
    expect(blockedBecause('printSize', paper)).toBeNull();
    expect(blockedBecause('finishing', paper)).toBe(PAPER_AND_SIZE_FIRST);
    expect(blockedBecause('finishing', run(...withSize))).toBeNull();
  });

  it('the reducer refuses choices on a blocked dropdown', () => {
    expect(builderReducer(INITIAL_SELECTIONS, { type: 'paper', paper: lustre })).toBe(INITIAL_SELECTIONS);
    const photo = run({ type: 'togglePhoto', photoGuid: 'p1' });
    expect(builderReducer(photo, { type: 'printSize', printSizeGuid: 'size-8x10' })).toBe(photo);
    expect(builderReducer(photo, { type: 'finishingCategory', category: 'mount' })).toBe(photo);
  });

  it('offers borders only on papers that take them', () => {
    expect(offersBorder(lustre)).toBe(true);
    expect(offersBorder(brushedCanvas)).toBe(false);
    expect(offersBorder(null)).toBe(false);
  });

  it('lists NONE (not for Brushed Canvas) and only the categories the server offered', () => {
    expect(offeredCategories(lustre, groups8x10)).toEqual(['none', 'mount', 'four_ply_mat', 'contemporary_frame', 'hardwood_frame']);
    expect(offeredCategories(brushedCanvas, groups8x10)).toEqual(['mount', 'four_ply_mat', 'contemporary_frame', 'hardwood_frame']);
    expect(offeredCategories(lustre, null)).toEqual(['none']);
  });

  it.each([
    ['four_ply_mat', 'mat_class', 'MAT CLASS'],
    ['mount', 'mount_color', 'MOUNT COLOR'],
    ['contemporary_frame', 'frame_mat', 'FRAME MAT'],
    ['desktop_frame', 'frame_mat', 'FRAME MAT'],
    ['none', null, null],
  ] as const)('the second choice of %s is %s, labelled %s', (category, kind, label) => {
    expect(optionTwoKind(category)).toBe(kind);
    expect(optionTwoLabel(category)).toBe(label);
  });
});

const labels = (s: Selections) => finishingDropdowns(s, lustre, groups8x10).map((d) => d.label);

describe('finishing dropdowns', () => {
  it.each([
    ['four_ply_mat', mat.guid, ['FINISHING', 'MAT SIZE']],
    ['mount', mount.guid, ['FINISHING', 'MOUNT SIZE', 'MOUNT COLOR']],
    ['contemporary_frame', contemporary.guid, ['FINISHING', 'FRAME WOOD', 'FRAME MAT']],
    ['hardwood_frame', hardwood.guid, ['FINISHING', 'FRAME WOOD', 'FRAME MAT']],
  ] as const)('%s with option one chosen shows %j', (category, guid, shown) => {
    const s = run(...withSize, { type: 'finishingCategory', category }, { type: 'finishingOptionOne', guid });
    expect(labels(s)).toEqual(shown);
  });

  it('shows only FINISHING for NONE and the first label before option one is chosen', () => {
    expect(labels(run(...withSize, { type: 'finishingCategory', category: 'none' }))).toEqual(['FINISHING']);
    expect(labels(run(...withSize, { type: 'finishingCategory', category: 'hardwood_frame' }))).toEqual(['FINISHING', 'FRAME WOOD']);
  });

  it('shows glass (ACRYLIC) once the frame mat is chosen, and stain after glass for hardwood only', () => {
    const base = run(...withSize, { type: 'finishingCategory', category: 'contemporary_frame' }, { type: 'finishingOptionOne', guid: contemporary.guid });
    const withMat = builderReducer(base, { type: 'finishingOptionTwo', guid: 'cf-white' });
    expect(labels(withMat)).toEqual(['FINISHING', 'FRAME WOOD', 'FRAME MAT', 'ACRYLIC']);
    expect(labels(builderReducer(withMat, { type: 'frameGlass', guid: 'cf-acrylic' }))).toEqual(['FINISHING', 'FRAME WOOD', 'FRAME MAT', 'ACRYLIC']);
    expect(labels(run(...framed))).toEqual(['FINISHING', 'FRAME WOOD', 'FRAME MAT', 'ACRYLIC', 'FRAME STAIN']);
    expect(labels(run(...framed.slice(0, -2)))).toEqual(['FINISHING', 'FRAME WOOD', 'FRAME MAT', 'ACRYLIC']);
  });

  it('gives each dropdown its options and value', () => {
    const [category, one, two, glass, stain] = finishingDropdowns(run(...framed), lustre, groups8x10);
    expect(category?.value).toBe('hardwood_frame');
    expect(category?.options.map((o) => o.label)).toEqual(['NONE', 'MOUNT', '4-PLY MAT', 'CONTEMPORARY FRAME', 'HARDWOOD FRAME']);
    expect(one?.options).toEqual([{ value: hardwood.guid, label: 'Walnut 1.5"', priceCents: 9250, isDefault: false }]);
    expect(two?.value).toBe('hw-white');
    expect(glass?.options.map((o) => o.value)).toEqual(['hw-acrylic']);
    expect(stain?.options[1]).toEqual({ value: 'hw-espresso', label: 'Espresso', priceCents: 1200, isDefault: false });
  });

  it('never shows option two for mats, so the reducer refuses it', () => {
    const s = run(...withSize, { type: 'finishingCategory', category: 'four_ply_mat' }, { type: 'finishingOptionOne', guid: mat.guid });
    expect(showsFinishingField('finishingOptionTwo', s)).toBe(false);
    expect(builderReducer(s, { type: 'finishingOptionTwo', guid: 'mc-museum' })).toBe(s);
    expect(builderReducer(s, { type: 'frameGlass', guid: 'x' })).toBe(s);
  });

  it('menus are 400 px high, 50 px for MOUNT SIZE', () => {
    expect(menuHeightPx('MOUNT SIZE')).toBe(50);
    expect(menuHeightPx('FRAME WOOD')).toBe(400);
  });
});

describe('what a change resets', () => {
  it('changing paper resets print size and all finishing, and the border when the paper takes none', () => {
    const s = run(...framed, { type: 'border', border: 'one_fourth' });
    expect(s.printBorder).toBe('one_fourth');
    const other = builderReducer(s, { type: 'paper', paper: { ...lustre, guid: 'paper-matte' } });
    expect(other).toMatchObject({ paperGuid: 'paper-matte', printSizeGuid: null, printBorder: 'one_fourth', finishingCategory: null, finishingOptionOne: null, finishingOptionTwo: null, frameGlass: null, frameStain: null });
    expect(builderReducer(s, { type: 'paper', paper: brushedCanvas }).printBorder).toBe('none');
    expect(builderReducer(s, { type: 'paper', paper: lustre })).toBe(s);
  });

  it('changing print size resets finishing and crops', () => {
    const s = run(...framed, { type: 'crop', photoGuid: 'p1', crop: { x: 1, y: 2, width: 50, height: 60 } }, { type: 'flip', photoGuid: 'p2', flipped: true });
    const next = builderReducer(s, { type: 'printSize', printSizeGuid: 'size-16x24' });
    expect(next).toMatchObject({ printSizeGuid: 'size-16x24', finishingCategory: null, finishingOptionOne: null, frameStain: null, crops: {}, flipped: {} });
  });

  it('changing category or option one resets everything below; a new detail keeps those after it', () => {
    const s = run(...framed);
    expect(builderReducer(s, { type: 'finishingCategory', category: 'mount' })).toMatchObject({ finishingCategory: 'mount', finishingOptionOne: null, finishingOptionTwo: null, frameGlass: null, frameStain: null });
    expect(builderReducer(s, { type: 'finishingOptionOne', guid: 'other-wood' })).toMatchObject({ finishingOptionTwo: null, frameGlass: null, frameStain: null });
    expect(builderReducer(s, { type: 'finishingOptionTwo', guid: 'hw-nomat' })).toMatchObject({ finishingOptionTwo: 'hw-nomat', frameGlass: 'hw-acrylic', frameStain: 'hw-espresso' });
    expect(builderReducer(s, { type: 'finishingOptionTwo', guid: null })).toMatchObject({ finishingOptionTwo: null, frameGlass: null, frameStain: null });
    expect(builderReducer(s, { type: 'frameGlass', guid: null })).toMatchObject({ frameGlass: null, frameStain: null });
  });

  it('keeps every state within the gating, whatever the actions', () => {
    const action: fc.Arbitrary<BuilderAction> = fc.oneof(
      fc.constantFrom<BuilderAction>(
        { type: 'togglePhoto', photoGuid: 'p1' },
        { type: 'resetPhotos' },
        { type: 'paper', paper: lustre },
        { type: 'paper', paper: brushedCanvas },
        { type: 'printSize', printSizeGuid: 'size-8x10' },
        { type: 'printSize', printSizeGuid: null },
        { type: 'finishingOptionOne', guid: hardwood.guid },
        { type: 'finishingOptionOne', guid: null },
        { type: 'finishingOptionTwo', guid: 'hw-white' },
        { type: 'finishingOptionTwo', guid: null },
        { type: 'frameGlass', guid: 'hw-acrylic' },
        { type: 'frameStain', guid: 'hw-natural' },
        { type: 'added' },
      ),
      fc.constantFrom('none', 'mount', 'four_ply_mat', 'hardwood_frame', 'contemporary_frame', null).map((category) => ({ type: 'finishingCategory', category }) as BuilderAction),
    );
    fc.assert(
      fc.property(fc.array(action, { maxLength: 30 }), (actions) => {
        const s = run(...actions);
        // Each finishing choice is set only where its dropdown shows; none without paper and size.
        for (const field of ['finishingOptionOne', 'finishingOptionTwo', 'frameGlass', 'frameStain'] as const) {
          expect(s[field] === null || showsFinishingField(field, s)).toBe(true);
        }
        expect(s.finishingCategory === null || (s.paperGuid !== null && s.printSizeGuid !== null)).toBe(true);
        expect(s.printSizeGuid === null || s.paperGuid !== null).toBe(true);
      }),
    );
  });
});

describe('photos, quantity, notes and crops in the selections', () => {
  it('toggles, selects all, resets; selections clear after adding', () => {
    const s = run({ type: 'togglePhoto', photoGuid: 'p1' }, { type: 'togglePhoto', photoGuid: 'p2' }, { type: 'togglePhoto', photoGuid: 'p1' });
    expect(s.photos).toEqual(['p2']);
    expect(builderReducer(s, { type: 'selectAllPhotos', photoGuids: ['p1', 'p2', 'p1', 'p3'] }).photos).toEqual(['p1', 'p2', 'p3']);
    const reset = builderReducer(run(...withSize), { type: 'resetPhotos' });
    expect(reset.photos).toEqual([]);
    expect(reset.paperGuid).toBe(lustre.guid);
    expect(builderReducer(run(...framed), { type: 'added' })).toBe(INITIAL_SELECTIONS);
  });

  it('applies the quantity rules and leaves the state alone when nothing changes', () => {
    const s = run({ type: 'quantityTyped', text: '3' }, { type: 'quantityStep', delta: -1 });
    expect(s.qty).toBe(2);
    expect(builderReducer(s, { type: 'quantityTyped', text: 'x' })).toBe(s);
    expect(run({ type: 'quantityStep', delta: -1 }).qty).toBe(1);
  });

  it('starts the quantity again at 1 whenever the selection of photos changes, and keeps the rest', () => {
    const two = run(...withSize, { type: 'finishingCategory', category: 'four_ply_mat' }, { type: 'quantityTyped', text: '2' });
    expect(two.qty).toBe(2);
    for (const change of [
      { type: 'togglePhoto', photoGuid: 'p2' },
      { type: 'togglePhoto', photoGuid: 'p1' },
      { type: 'selectAllPhotos', photoGuids: ['p1', 'p2'] },
      { type: 'resetPhotos' },
    ] as const) {
      const next = builderReducer(two, change);
      expect({ change: change.type, qty: next.qty, size: next.printSizeGuid, category: next.finishingCategory }).toEqual({ change: change.type, qty: 1, size: 'size-8x10', category: 'four_ply_mat' });
    }
  });

  it('writes notes to the one photo, else to ALL, within 5000 characters', () => {
    expect(run({ type: 'togglePhoto', photoGuid: 'p1' }, { type: 'notes', text: 'dodge the sky' }).notes).toEqual({ p1: 'dodge the sky' });
    expect(run({ type: 'selectAllPhotos', photoGuids: ['p1', 'p2'] }, { type: 'notes', text: 'all warm' }).notes).toEqual({ ALL: 'all warm' });
    expect(run({ type: 'notes', text: 'x'.repeat(6000) }).notes.ALL).toHaveLength(5000);
  });

  it('keeps crops rounded, and a flip starts the crop again', () => {
    const s = run({ type: 'crop', photoGuid: 'p1', crop: { x: 10.123, y: 0, width: 50.555, height: 100 } });
    expect(s.crops.p1).toEqual({ x: 10.12, y: 0, width: 50.56, height: 100 });
    const flipped = builderReducer(s, { type: 'flip', photoGuid: 'p1', flipped: true });
    expect(flipped.crops).toEqual({});
    expect(flipped.flipped).toEqual({ p1: true });
  });

  it('crops a photo as made, else centred in its own orientation, else whole', () => {
    const size = lustre.print_size_pricings[0]!;
    const landscape = { guid: 'p1', width: 6000, height: 4000 };
    expect(isFlipped(INITIAL_SELECTIONS, landscape, size)).toBe(true);
    expect(photoCrop(INITIAL_SELECTIONS, landscape, 'Lustre', size)).toEqual({ x: 8.34, y: 0, width: 83.33, height: 100 });
    const chosen = run({ type: 'flip', photoGuid: 'p1', flipped: false });
    expect(photoCrop(chosen, landscape, 'Lustre', size)).toEqual({ x: 23.34, y: 0, width: 53.33, height: 100 });
    expect(photoCrop(INITIAL_SELECTIONS, { guid: 'p9', width: null, height: null }, 'Lustre', size)).toEqual({ x: 0, y: 0, width: 100, height: 100 });
  });
});

describe('the chosen finishing', () => {
  it('maps selections to a priced choice with the details in order', () => {
    const choice = finishingChoice(run(...framed), groups8x10);
    expect(choice?.service).toBe(hardwood);
    expect(choice?.details).toEqual({ frame_mat: 'hw-white', glass: 'hw-acrylic', stain: 'hw-espresso' });
    expect(chosenDetailGuids(choice)).toEqual(['hw-white', 'hw-acrylic', 'hw-espresso']);
    const mountChoice = finishingChoice(run(...withSize, { type: 'finishingCategory', category: 'mount' }, { type: 'finishingOptionOne', guid: mount.guid }, { type: 'finishingOptionTwo', guid: 'mc-white' }), groups8x10);
    expect(mountChoice?.details).toEqual({ mount_color: 'mc-white' });
  });

  it('is null for NONE, before option one, and for a service no longer offered', () => {
    expect(finishingChoice(run(...withSize, { type: 'finishingCategory', category: 'none' }), groups8x10)).toBeNull();
    expect(finishingChoice(run(...withSize, { type: 'finishingCategory', category: 'mount' }), groups8x10)).toBeNull();
    expect(finishingChoice(run(...framed), [])).toBeNull();
    expect(chosenDetailGuids(null)).toEqual([]);
  });
});
