import { ownValue } from './collections.ts';

/**
 * Notes of line items and the boutique packaging note (docs/orders.md §5): a note per photo, one for
 * all photos under 'ALL', limits of 5000 and 300 characters (counted as a textarea's maxLength
 * counts them).
 */

/** The key of the note that applies to every photo without its own. */
export const ALL_PHOTOS = 'ALL';

export const NOTES_MAX = 5000;
export const BOUTIQUE_NOTE_MAX = 300;

/** Notes by photo guid, or under ALL_PHOTOS. */
export type PhotoNotes = Readonly<Record<string, string>>;

/** A photo's note: its own, else the 'ALL' note, else empty. An emptied own note counts as none. */
export const defaultNote = (notes: PhotoNotes, photoGuid: string): string => ownValue(notes, photoGuid) || ownValue(notes, ALL_PHOTOS) || '';

/** Where the notes box writes: the photo's own note when one photo is selected, else 'ALL'. */
export const noteKey = (selectedPhotoGuids: readonly string[]): string =>
  selectedPhotoGuids.length === 1 && selectedPhotoGuids[0] !== undefined ? selectedPhotoGuids[0] : ALL_PHOTOS;

/** The note the box shows for the selection. */
export const shownNote = (notes: PhotoNotes, selectedPhotoGuids: readonly string[]): string => {
  const key = noteKey(selectedPhotoGuids);
  return key === ALL_PHOTOS ? (ownValue(notes, ALL_PHOTOS) ?? '') : defaultNote(notes, key);
};

/** Cuts a note to a limit without splitting a character made of two UTF-16 units. */
export function limitNote(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = text.slice(0, max);
  const last = cut.charCodeAt(cut.length - 1);
  return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}

export const notesProblem = (text: string): string | null => (text.length > NOTES_MAX ? `Notes can be at most ${NOTES_MAX} characters.` : null);

/** 'n/300' under the boutique note. */
export const boutiqueNoteCounter = (text: string): string => `${text.length}/${BOUTIQUE_NOTE_MAX}`;

/** SAVE stays disabled while the note is empty (or too long). */
export const canSaveBoutiqueNote = (text: string): boolean => text.trim().length > 0 && text.length <= BOUTIQUE_NOTE_MAX;
