import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { builderReducer, type BuilderAction } from '../../src/features/order-builder/builder-reducer.ts';
import { finishingChoice } from '../../src/domain/builder-gating.ts';
import { INITIAL_SELECTIONS, type Selections } from '../../src/domain/builder-selections.ts';
import { chunk } from '../../src/domain/collections.ts';
import { planCartAdd, type CartLine } from '../../src/domain/line-item-merge.ts';
import { LINE_ITEM_BATCH_SIZE, lineItemBatches, lineItemPayload, selectionPayloads, type LineItemPayload } from '../../src/domain/line-item-payload.ts';
import type { ServerLineItem } from '../../src/contract/line-items.ts';
import { flattenLineItem, selectionsFromLineItem } from '../../src/client-rules/line-items.ts';
import { groups8x10, hardwood, lustre, mount } from './fixtures/builder-catalogue.ts';

const run = (...actions: BuilderAction[]): Selections => actions.reduce(builderReducer, INITIAL_SELECTIONS);
const framedActions: BuilderAction[] = [
  { type: 'togglePhoto', photoGuid: 'p1' },
  { type: 'paper', paper: lustre },
  { type: 'printSize', printSizeGuid: 'size-8x10' },
  { type: 'finishingCategory', category: 'hardwood_frame' },
  { type: 'finishingOptionOne', guid: hardwood.guid },
  { type: 'finishingOptionTwo', guid: 'hw-white' },
  { type: 'frameGlass', guid: 'hw-acrylic' },
  { type: 'frameStain', guid: 'hw-espresso' },
];

const serverItem: ServerLineItem = {
  guid: 'li-1',
  photograph_guid: 'p1',
  photograph_url: 'https://lab.example/photos/p1/preview.jpg',
  photograph_cropped_url: 'https://lab.example/photos/p1/cropped/li-1.jpg',
  photograph_full_url: 'https://lab.example/photos/p1/original.jpg',
  photo_file_name: 'IMG_0001.jpg',
  print_size_attributes: { paper: 'Lustre', paper_guid: 'paper-lustre', print_size: '8x10', print_size_guid: 'size-8x10', price: 3.1 },
  print_border: 'one_fourth',
  external_id: null,
  notes: 'dodge the sky',
  internal_notes: null,
  photograph_attributes: { crop_x: 8.34, crop_y: 0, crop_h: 100, crop_w: 83.33, aspect: 1.25 },
  quantity: 2,
  subtotal: 229.2,
  finishing_service: {
    finishing_category: 'hardwood_frame',
    finishing_service: 'Walnut 1.5"',
    finishing_service_guid: hardwood.guid,
    finishing_service_detail: 'White 4-Ply Mat',
    finishing_service_detail_guid: 'hw-white',
    finishing_service_detail_two_guid: 'hw-acrylic',
    finishing_service_detail_three_guid: 'hw-espresso',
    formatted_frame_profile: '-1.5',
    formatted_detail_one: 'White 4-Ply Mat',
    formatted_detail_two: 'ACRYLIC',
    formatted_detail_three: 'Espresso',
    price: 111.5,
  },
};

describe('flattening a server line item (docs/orders.md §3)', () => {
  it('gives the builder its shape, prices in cents', () => {
    expect(flattenLineItem(serverItem, 'order-1')).toEqual({
      guid: 'li-1',
      labOrderGuid: 'order-1',
      photoGuid: 'p1',
      photoUrl: 'https://lab.example/photos/p1/cropped/li-1.jpg',
      imageName: 'IMG_0001.jpg',
      externalId: null,
      notes: 'dodge the sky',
      internalNotes: '',
      printSize: '8x10',
      printSizeGuid: 'size-8x10',
      printBorder: '1/4" border',
      printBorderRaw: 'one_fourth',
      paper: 'Lustre',
      paperGuid: 'paper-lustre',
      printPriceCents: 310,
      finishingCategory: 'hardwood_frame',
      finishingService: 'Walnut 1.5"',
      finishingServiceGuid: hardwood.guid,
      finishingServiceDetailGuid: 'hw-white',
      finishingServiceDetailTwoGuid: 'hw-acrylic',
      finishingServiceDetailThreeGuid: 'hw-espresso',
      finishingDetailOne: 'White 4-Ply Mat',
      finishingDetailTwo: 'ACRYLIC',
      finishingDetailThree: 'Espresso',
      frameProfile: '-1.5',
      frameGlassName: 'ACRYLIC',
      finishingPriceCents: 11150,
      cropAttributes: { x: 8.34, y: 0, height: 100, width: 83.33, aspect: 1.25 },
      quantity: 2,
      totalPriceCents: 22920,
    });
  });

  it('reads no finishing as NONE, a missing cropped image as the photo, odd borders as none', () => {
    const flat = flattenLineItem({ ...serverItem, finishing_service: null, photograph_cropped_url: null, print_border: 'huge' }, 'o');
    expect(flat).toMatchObject({ finishingCategory: 'none', finishingServiceGuid: null, frameGlassName: null, finishingPriceCents: 0, printBorder: 'No border' });
    expect(flat.photoUrl).toBe(serverItem.photograph_url);
  });

  it('turns back into the selections that made it, for the line-item edit', () => {
    const s = selectionsFromLineItem(flattenLineItem(serverItem, 'order-1'));
    expect(s).toMatchObject({
      photos: ['p1'],
      paperGuid: 'paper-lustre',
      printSizeGuid: 'size-8x10',
      printBorder: 'one_fourth',
      finishingCategory: 'hardwood_frame',
      finishingOptionOne: hardwood.guid,
      finishingOptionTwo: 'hw-white',
      frameGlass: 'hw-acrylic',
      frameStain: 'hw-espresso',
      qty: 2,
      notes: { p1: 'dodge the sky' },
      crops: { p1: { x: 8.34, y: 0, width: 83.33, height: 100 } },
      // Cropped 10 wide by 8 high on an 8x10: flipped.
      flipped: { p1: true },
    });
    const s2 = selectionsFromLineItem(flattenLineItem(serverItem, 'order-1'));
    expect(finishingChoice(s2, groups8x10)?.details).toEqual({ frame_mat: 'hw-white', glass: 'hw-acrylic', stain: 'hw-espresso' });
  });

  it('maps a mount’s one detail to MOUNT COLOR, and NONE to no finishing', () => {
    const mounted = flattenLineItem(
      {
        ...serverItem,
        finishing_service: { ...serverItem.finishing_service!, finishing_category: 'mount', finishing_service_guid: mount.guid, finishing_service_detail_guid: 'mc-white', finishing_service_detail_two_guid: null, finishing_service_detail_three_guid: null },
      },
      'o',
    );
    expect(selectionsFromLineItem(mounted)).toMatchObject({ finishingCategory: 'mount', finishingOptionOne: mount.guid, finishingOptionTwo: 'mc-white', frameGlass: null, frameStain: null });
    const none = selectionsFromLineItem(flattenLineItem({ ...serverItem, finishing_service: null, print_border: 'odd', photograph_attributes: { ...serverItem.photograph_attributes, aspect: 0.8 } }, 'o'));
    expect(none).toMatchObject({ finishingCategory: 'none', finishingOptionOne: null, printBorder: 'none', flipped: { p1: false } });
  });
});

const photo = { guid: 'p1', photo_file_name: 'IMG_0001.jpg' };

describe('the line item creation payload (docs/orders.md §3)', () => {
  it('carries the selections, the details in order, the crop and the note', () => {
    const s = run(...framedActions, { type: 'notes', text: 'dodge the sky' });
    const payload = lineItemPayload({ guid: 'li-new', photo, selections: s, finishing: finishingChoice(s, groups8x10), crop: { x: 8.344, y: 0, width: 83.33, height: 100 }, aspect: 1.25 });
    expect(payload).toEqual({
      guid: 'li-new',
      imageName: 'IMG_0001.jpg',
      quantity: 1,
      print_size: 'size-8x10',
      finishing_service: hardwood.guid,
      finishing_service_detail: 'hw-white',
      finishing_service_details: ['hw-white', 'hw-acrylic', 'hw-espresso'],
      print_border: 'none',
      notes: 'dodge the sky',
      source_photograph_guid: 'p1',
      photograph: { source_photograph_guid: 'p1', crop_x: 8.34, crop_y: 0, crop_h: 100, crop_w: 83.33, photo_meta: { aspect: 1.25 } },
    } satisfies LineItemPayload);
  });

  it('defaults to no finishing, border none, the whole photo, empty meta and the ALL note', () => {
    const payload = lineItemPayload({ guid: 'g', photo, selections: { printSizeGuid: 'size-8x10', qty: 3, notes: { ALL: 'all warm' } }, finishing: null });
    expect(payload).toMatchObject({ quantity: 3, finishing_service: null, finishing_service_detail: null, finishing_service_details: [], print_border: 'none', notes: 'all warm' });
    expect(payload.photograph).toEqual({ source_photograph_guid: 'p1', crop_x: 0, crop_y: 0, crop_h: 100, crop_w: 100, photo_meta: {} });
    expect(() => lineItemPayload({ guid: 'g', photo, selections: { printSizeGuid: null, qty: 1, notes: {} }, finishing: null })).toThrow(RangeError);
  });

  it('makes one payload per selected photo, in selection order, each with its crop and own guid', () => {
    const s = run(
      { type: 'selectAllPhotos', photoGuids: ['p2', 'p1'] },
      { type: 'paper', paper: lustre },
      { type: 'printSize', printSizeGuid: 'size-8x10' },
    );
    let n = 0;
    const payloads = selectionPayloads({
      selections: s,
      photos: [photo, { guid: 'p2', photo_file_name: 'IMG_0002.jpg' }, { guid: 'p3', photo_file_name: 'x.jpg' }],
      finishing: null,
      cropOf: (guid) => ({ crop: guid === 'p1' ? { x: 10, y: 0, width: 80, height: 100 } : { x: 0, y: 0, width: 100, height: 100 }, aspect: 0.8 }),
      newGuid: () => `li-${++n}`,
    });
    expect(payloads.map((p) => [p.guid, p.source_photograph_guid, p.photograph.crop_x])).toEqual([
      ['li-1', 'p2', 0],
      ['li-2', 'p1', 10],
    ]);
    expect(() => selectionPayloads({ selections: s, photos: [photo], finishing: null, cropOf: () => ({ crop: { x: 0, y: 0, width: 100, height: 100 }, aspect: null }), newGuid: () => 'x' })).toThrow(
      'the selected photo p2 is not in the order',
    );
  });

  it('posts in batches of 30, in order', () => {
    expect(LINE_ITEM_BATCH_SIZE).toBe(30);
    const items = Array.from({ length: 65 }, (_, i) => i);
    const batches = lineItemBatches(items);
    expect(batches.map((b) => b.line_items.length)).toEqual([30, 30, 5]);
    expect(batches.flatMap((b) => b.line_items)).toEqual(items);
    expect(lineItemBatches([])).toEqual([]);
    expect(() => chunk([1], 0)).toThrow(RangeError);
  });

  it('batches keep every item once, in order, none above 30', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 200 }), (items) => {
        const batches = lineItemBatches(items);
        expect(batches.flatMap((b) => b.line_items)).toEqual(items);
        expect(batches.every((b) => b.line_items.length >= 1 && b.line_items.length <= 30)).toBe(true);
      }),
    );
  });
});

describe('the merge rule (docs/orders.md §5)', () => {
  const line = (guid: string, photoGuid: string, printSizeGuid: string, finishingServiceGuid: string | null, quantity: number): CartLine => ({
    guid,
    photoGuid,
    printSizeGuid,
    finishingServiceGuid,
    quantity,
  });
  const add = (guid: string, photoGuid: string, print_size: string, finishing_service: string | null, quantity = 1) =>
    ({ ...lineItemPayload({ guid, photo: { guid: photoGuid, photo_file_name: `${photoGuid}.jpg` }, selections: { printSizeGuid: print_size, qty: quantity, notes: {} }, finishing: null }), finishing_service });
  const cart = [line('a', 'p1', 's8x10', null, 2), line('b', 'p1', 's8x10', 'walnut', 1), line('c', 'p2', 's8x10', null, 1)];

  it('raises the same photo, size and finishing service by 1 and posts nothing new, whatever quantity was chosen', () => {
    expect(planCartAdd(cart, [add('n1', 'p1', 's8x10', null, 5)])).toEqual({ post: [], quantityUpdates: [{ guid: 'a', quantity: 3 }] });
    expect(planCartAdd(cart, [add('n1', 'p1', 's8x10', 'walnut')])).toEqual({ post: [], quantityUpdates: [{ guid: 'b', quantity: 2 }] });
  });

  it('posts what differs in photo, size or finishing service', () => {
    const adds = [add('n1', 'p3', 's8x10', null), add('n2', 'p1', 's11x14', null), add('n3', 'p2', 's8x10', 'walnut')];
    expect(planCartAdd(cart, adds)).toEqual({ post: adds, quantityUpdates: [] });
  });

  it('counts repeats within one add', () => {
    const plan = planCartAdd(cart, [add('n1', 'p1', 's8x10', null), add('n2', 'p1', 's8x10', null), add('n3', 'p9', 's8x10', null, 4), add('n4', 'p9', 's8x10', null, 4)]);
    expect(plan.quantityUpdates).toEqual([{ guid: 'a', quantity: 4 }]);
    expect(plan.post.map((p) => [p.guid, p.quantity])).toEqual([['n3', 5]]);
  });
});
