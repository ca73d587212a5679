import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ALL_PHOTOS,
  BOUTIQUE_NOTE_MAX,
  NOTES_MAX,
  boutiqueNoteCounter,
  canSaveBoutiqueNote,
  defaultNote,
  limitNote,
  noteKey,
  notesProblem,
  shownNote,
} from '../../src/domain/notes.ts';
import { photoNumber, sortPhotosByNumber, truncateFileName } from '../../src/client-rules/photo-order.ts';
import {
  DEFAULT_QUANTITY,
  MAX_QUANTITY,
  quantityUpdateBody,
  readQuantityUpdate,
  steppedQuantity,
  typedQuantity,
} from '../../src/domain/quantity.ts';

describe('quantity (docs/orders.md §5)', () => {
  it('starts at 1', () => expect(DEFAULT_QUANTITY).toBe(1));

  it.each([
    ['5', 5],
    ['12', 12],
    ['007', 7],
    ['', 3],
    ['0', 3],
    ['-2', 3],
    ['2.5', 3],
    ['1e3', 3],
    [' 4', 3],
    ['abc', 3],
    [String(MAX_QUANTITY), MAX_QUANTITY],
    [String(MAX_QUANTITY + 1), 3],
  ])('typing %j over 3 gives %i', (text, qty) => expect(typedQuantity(3, text)).toBe(qty));

  it.each([
    [1, 1, 2],
    [2, -1, 1],
    [1, -1, 1],
    [1, -5, 1],
    [MAX_QUANTITY, 1, MAX_QUANTITY],
  ])('%i stepped by %i is %i', (current, delta, next) => expect(steppedQuantity(current, delta)).toBe(next));

  it('never leaves 1..MAX whatever is typed or stepped', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(fc.string(), fc.integer({ min: -20_000, max: 20_000 }))), (inputs) => {
        let q = DEFAULT_QUANTITY;
        for (const input of inputs) q = typeof input === 'string' ? typedQuantity(q, input) : steppedQuantity(q, input);
        expect(Number.isInteger(q) && q >= 1 && q <= MAX_QUANTITY).toBe(true);
      }),
    );
  });

  it('reads update_quantity in both shapes and writes the line_items one', () => {
    expect(quantityUpdateBody(4)).toEqual({ line_items: [{ quantity: 4 }] });
    expect(readQuantityUpdate({ line_items: [{ quantity: 4 }] })).toBe(4);
    expect(readQuantityUpdate({ qty: 3 })).toBe(3);
    for (const bad of [null, 'x', {}, { qty: 0 }, { qty: '3' }, { line_items: [] }, { line_items: [{ quantity: 1 }, { quantity: 2 }] }, { line_items: [null] }, { qty: 1.5 }]) {
      expect(readQuantityUpdate(bad)).toBeNull();
    }
  });
});

describe('notes (docs/orders.md §5)', () => {
  const notes = { p1: 'Warm it up a little', p2: '', [ALL_PHOTOS]: 'Lustre coating please' };

  it.each([
    ['p1', 'Warm it up a little'],
    ['p2', 'Lustre coating please'],
    ['p3', 'Lustre coating please'],
  ])('photo %s gets %j', (guid, note) => expect(defaultNote(notes, guid)).toBe(note));

  it('is empty with neither its own nor an ALL note', () => {
    expect(defaultNote({ p1: 'x' }, 'p9')).toBe('');
    expect(defaultNote({}, 'constructor')).toBe('');
  });

  it('writes to the photo with one selected, else to ALL', () => {
    expect(noteKey(['p1'])).toBe('p1');
    expect(noteKey(['p1', 'p2'])).toBe(ALL_PHOTOS);
    expect(noteKey([])).toBe(ALL_PHOTOS);
    expect(shownNote(notes, ['p3'])).toBe('Lustre coating please');
    expect(shownNote(notes, ['p1', 'p2'])).toBe('Lustre coating please');
    expect(shownNote({}, ['p1', 'p2'])).toBe('');
  });

  it('limits notes to 5000 and the boutique note to 300 with a counter', () => {
    expect(NOTES_MAX).toBe(5000);
    expect(BOUTIQUE_NOTE_MAX).toBe(300);
    expect(notesProblem('a'.repeat(5000))).toBeNull();
    expect(notesProblem('a'.repeat(5001))).toBe('Notes can be at most 5000 characters.');
    expect(limitNote('a'.repeat(6000), NOTES_MAX)).toHaveLength(5000);
    expect(limitNote(`${'a'.repeat(299)}😀`, 300)).toBe('a'.repeat(299));
    expect(limitNote('short', 300)).toBe('short');
    expect(boutiqueNoteCounter('')).toBe('0/300');
    expect(boutiqueNoteCounter('Thank you!')).toBe('10/300');
    expect(canSaveBoutiqueNote('')).toBe(false);
    expect(canSaveBoutiqueNote('   ')).toBe(false);
    expect(canSaveBoutiqueNote('Gift wrap')).toBe(true);
    expect(canSaveBoutiqueNote('a'.repeat(301))).toBe(false);
  });
});

describe('photo order (docs/orders.md §5)', () => {
  it.each([
    ['0012.jpg', 12],
    ['12-final.jpg', 12],
    ['IMG_0045.jpg', 45],
    ['wedding_7_bw.jpg', 7],
    ['my_photo_12.jpg', 12],
    ['DSC00045.JPG', 45],
    ['0000.jpg', 0],
    ['sunset.png', null],
  ])('%s sorts by %j', (name, n) => expect(photoNumber(name)).toBe(n));

  const named = (...names: string[]) => names.map((photo_file_name, i) => ({ photo_file_name, i }));

  it('sorts by number, ties and unnumbered in their order, unnumbered last', () => {
    const photos = named('IMG_0010.jpg', 'sunset.png', '2.jpg', 'IMG_0002.jpg', '10.jpg', 'beach.jpg', 'IMG_0001.jpg');
    expect(sortPhotosByNumber(photos).map((p) => p.photo_file_name)).toEqual([
      'IMG_0001.jpg',
      '2.jpg',
      'IMG_0002.jpg',
      'IMG_0010.jpg',
      '10.jpg',
      'sunset.png',
      'beach.jpg',
    ]);
  });

  it('compares numbers longer than a double holds exactly', () => {
    const photos = named('20240512123456789012_b.jpg', '20240512123456789011_a.jpg');
    expect(sortPhotosByNumber(photos).map((p) => p.i)).toEqual([1, 0]);
  });

  it('is a stable permutation ordered by number', () => {
    const name = fc.oneof(fc.nat({ max: 50 }).map((n) => `${n}.jpg`), fc.nat({ max: 50 }).map((n) => `IMG_${n}.jpg`), fc.constantFrom('a.jpg', 'b.png'));
    fc.assert(
      fc.property(fc.array(name, { maxLength: 40 }), (names) => {
        const sorted = sortPhotosByNumber(named(...names));
        expect(sorted.map((p) => p.i).toSorted((a, b) => a - b)).toEqual(names.map((_, i) => i));
        for (let k = 1; k < sorted.length; k++) {
          const a = sorted[k - 1]!;
          const b = sorted[k]!;
          const na = photoNumber(a.photo_file_name);
          const nb = photoNumber(b.photo_file_name);
          expect(na === null && nb !== null).toBe(false);
          expect(na === nb ? a.i < b.i : nb === null || (na !== null && na < nb)).toBe(true);
        }
      }),
    );
  });

  it.each([
    ['IMG_20240512_123456_final.jpg', 'IMG_..._final.jpg'],
    ['IMG_0045.jpg', 'IMG_0045.jpg'],
    ['abcdefghijklmn', 'abcdefghijklmn'],
    ['abcdefghijklmno', 'abcd...fghijklmno'],
    ['ÉtéAtLakeComo2024.jpg', 'ÉtéA...mo2024.jpg'],
  ])('shortens %s to %s', (name, shown) => expect(truncateFileName(name)).toBe(shown));
});
