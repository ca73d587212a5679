/**
 * What a file is, told by its bytes (magic numbers), never by its name or the browser's content
 * type (docs/lab-rules.md §5: JPEG or PNG for photos, PDF for certificates). Pure, so the upload worker
 * can refuse a wrong file before sending it, and the server checks the stored object the same way.
 */

/** The kinds the lab accepts somewhere. */
export type FileKind = 'jpeg' | 'png' | 'pdf';
/** Everything sniffFileType can tell apart, so a refusal can say what the file really is. */
export type SniffedType = FileKind | 'gif' | 'webp' | 'heic' | 'avif' | 'tiff' | 'zip' | 'text' | 'empty' | 'unknown';

/** How many leading bytes sniffFileType looks at. */
export const SNIFF_BYTES = 32;
/** How many trailing bytes truncationRefusal looks at (PDF readers search the last 1024 for %%EOF). */
export const TAIL_BYTES = 1024;

export const ACCEPTED_PHOTO_KINDS: readonly FileKind[] = ['jpeg', 'png'];

const DESCRIPTION: Record<SniffedType, string> = {
  jpeg: 'a JPEG image',
  png: 'a PNG image',
  pdf: 'a PDF document',
  gif: 'a GIF image',
  webp: 'a WebP image',
  heic: 'a HEIC image (the iPhone format)',
  avif: 'an AVIF image',
  tiff: 'a TIFF image or a camera RAW file',
  zip: 'a ZIP archive or an Office document',
  text: 'a text file',
  empty: 'empty',
  unknown: 'of a type we do not recognise',
};
const KIND_NAME: Record<FileKind, string> = { jpeg: 'JPEG', png: 'PNG', pdf: 'PDF' };

const startsWith = (bytes: Uint8Array, magic: readonly number[], at = 0) => magic.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));

/** The type of a file from its first SNIFF_BYTES bytes. */
export function sniffFileType(head: Uint8Array): SniffedType {
  if (head.length === 0) return 'empty';
  if (startsWith(head, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(head, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (ascii(head, 0, 5) === '%PDF-') return 'pdf';
  if (ascii(head, 0, 6) === 'GIF87a' || ascii(head, 0, 6) === 'GIF89a') return 'gif';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  if (ascii(head, 4, 8) === 'ftyp') {
    const brand = ascii(head, 8, 12);
    if (brand === 'avif' || brand === 'avis') return 'avif';
    if (['heic', 'heix', 'hevc', 'heim', 'heis', 'mif1', 'msf1'].includes(brand)) return 'heic';
  }
  if (startsWith(head, [0x49, 0x49, 0x2a, 0x00]) || startsWith(head, [0x4d, 0x4d, 0x00, 0x2a])) return 'tiff';
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return 'zip';
  // Printable ASCII and UTF-8 with line breaks and tabs, no other control bytes: text.
  if (head.every((b) => b === 0x09 || b === 0x0a || b === 0x0d || (b >= 0x20 && b !== 0x7f))) return 'text';
  return 'unknown';
}

/**
 * Why a file of this type is refused where only `accepted` kinds go, in the user's words, or
 * null when it is accepted. `what` names the file: 'The blanket certificate of resale', 'A photo'.
 */
export function kindRefusal(found: SniffedType, accepted: readonly FileKind[], what: string): string | null {
  if ((accepted as readonly string[]).includes(found)) return null;
  const names = accepted.map((k) => KIND_NAME[k]);
  const wanted = names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : (names[0] ?? '');
  return `${what} must be a ${wanted} file. This file is ${DESCRIPTION[found]}.`;
}

const indexOf = (bytes: Uint8Array, needle: string) => {
  const codes = [...needle].map((c) => c.charCodeAt(0));
  for (let i = 0; i + codes.length <= bytes.length; i++) if (startsWith(bytes, codes, i)) return i;
  return -1;
};

/**
 * Whether a file of an accepted kind ends the way a complete one does, from its last TAIL_BYTES
 * bytes: a cut-off upload is refused with a reason instead of being kept. A JPEG's end is not
 * telling (phones append videos after it); the server decodes photos to find a cut-off one.
 */
export function truncationRefusal(kind: FileKind, tail: Uint8Array): string | null {
  if (kind === 'pdf' && indexOf(tail, '%%EOF') < 0) return 'This PDF is incomplete: the upload may have been cut off. Please upload it again.';
  if (kind === 'png' && indexOf(tail, 'IEND') < 0) return 'This PNG image is incomplete: the upload may have been cut off. Please upload it again.';
  return null;
}
