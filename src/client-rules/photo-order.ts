/**
 * The order photos show in the builder (docs/orders.md §5): by the leading number of the file name,
 * or, when the name starts with text, by the number after the first underscore ('IMG_0045.jpg'
 * → 45). And long names shortened to 4 leading and up to 10 trailing characters.
 */

/**
 * The digits a name sorts by, without leading zeros; null when it has none. Beyond the spec: a
 * name starting with text and no number after its first underscore ('DSC00045.jpg',
 * 'IMG-0045.jpg') sorts by its first run of digits, as a photographer would expect.
 */
function sortDigits(fileName: string): string | null {
  const leading = /^\d+/.exec(fileName)?.[0];
  const afterUnderscore = !leading && fileName.includes('_') ? /^\d+/.exec(fileName.slice(fileName.indexOf('_') + 1))?.[0] : undefined;
  const digits = leading ?? afterUnderscore ?? /\d+/.exec(fileName)?.[0];
  return digits === undefined ? null : digits.replace(/^0+(?=\d)/, '');
}

/** The number a file name sorts by, or null. */
export function photoNumber(fileName: string): number | null {
  const digits = sortDigits(fileName);
  return digits === null ? null : Number(digits);
}

/** Compares digit strings exactly, however long (camera counters can exceed 2^53 when glued to dates). */
const compareDigits = (a: string, b: string): number => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);

/**
 * Photos by the number in their file name (`nameOf` reads it). Equal numbers keep their order
 * (upload order); names without a number come last, in their order. The builder's strip and the
 * upload screen's grid both order photos with this.
 */
export function sortByPhotoNumber<T>(photos: readonly T[], nameOf: (photo: T) => string): T[] {
  const keyed = photos.map((photo) => ({ photo, digits: sortDigits(nameOf(photo)) }));
  keyed.sort((a, b) => {
    if (a.digits === null || b.digits === null) return (a.digits === null ? 1 : 0) - (b.digits === null ? 1 : 0);
    return compareDigits(a.digits, b.digits);
  });
  return keyed.map((k) => k.photo);
}

/** Photos as the lab names them (`photo_file_name`), by the number in their file name. */
export const sortPhotosByNumber = <T extends { photo_file_name: string }>(photos: readonly T[]): T[] => sortByPhotoNumber(photos, (p) => p.photo_file_name);

export const FILE_NAME_HEAD = 4;
export const FILE_NAME_TAIL = 10;
export const FILE_NAME_ELLIPSIS = '...';

/** 'IMG_20240512_123456_final.jpg' → 'IMG_..._final.jpg'; names of 14 characters or fewer stay whole. */
export function truncateFileName(name: string): string {
  const chars = Array.from(name);
  if (chars.length <= FILE_NAME_HEAD + FILE_NAME_TAIL) return name;
  return chars.slice(0, FILE_NAME_HEAD).join('') + FILE_NAME_ELLIPSIS + chars.slice(-FILE_NAME_TAIL).join('');
}
