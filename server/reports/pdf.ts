/**
 * A small PDF writer for the lab's reports: pages of plain text lines in Courier (columns line up), A4 portrait,
 * with an optional image at the top of the first page (a studio's logo on a packing slip).
 * Enough for a sales report a tax office accepts, without a PDF library.
 */
const PAGE_WIDTH = 595;
const PAGE_HEIGHT = 842;
const MARGIN = 50;
const LINE_HEIGHT = 14;
const FONT_SIZE = 10;
const LINES_PER_PAGE = Math.floor((PAGE_HEIGHT - 2 * MARGIN) / LINE_HEIGHT);
// The box an image is scaled into, in points (72 a inch): a logo about two inches wide, above the text.
const IMAGE_BOX = { width: 160, height: 80 };

/** A baseline JPEG in RGB, placed as it is (PDF's DCTDecode filter reads JPEG bytes unchanged). */
export interface PdfJpeg {
  bytes: Buffer;
  width: number;
  height: number;
}

/** PDF string literals escape backslashes and parentheses; other characters outside Latin-1 become '?'. */
const escape = (text: string) => text.replace(/[^\x20-\xff]/g, '?').replace(/([\\()])/g, '\\$1');

export function textPdf(text: { text: string; bold?: boolean }[], opts: { image?: PdfJpeg } = {}): Buffer {
  const image = opts.image;
  const scale = image ? Math.min(IMAGE_BOX.width / image.width, IMAGE_BOX.height / image.height, 1) : 0;
  const drawn = image ? { width: Math.round(image.width * scale), height: Math.round(image.height * scale) } : null;
  // The image takes the first page's top lines: the text starts below it.
  const reserved = drawn ? Math.ceil(drawn.height / LINE_HEIGHT) + 1 : 0;
  const lines: { text: string; bold?: boolean }[] = [...Array.from({ length: reserved }, () => ({ text: '' })), ...text];
  const pages: (typeof lines)[] = [];
  for (let i = 0; i < Math.max(lines.length, 1); i += LINES_PER_PAGE) pages.push(lines.slice(i, i + LINES_PER_PAGE));

  const objects: string[] = [];
  // Object numbers start at 1: the new length is the new object's number.
  const add = (body: string) => objects.push(body);
  const catalog = add('');
  const pagesObj = add('');
  const font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>');
  const bold = add('<< /Type /Font /Subtype /Type1 /BaseFont /Courier-Bold /Encoding /WinAnsiEncoding >>');
  // Its bytes go into the file as Latin-1 characters, one per byte, so they come out unchanged.
  const imageObj = image
    ? add(
        `<< /Type /XObject /Subtype /Image /Width ${image.width} /Height ${image.height} /ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /DCTDecode /Length ${image.bytes.length} >>\nstream\n${image.bytes.toString('latin1')}\nendstream`,
      )
    : null;
  const pageIds: number[] = [];
  for (const [n, page] of pages.entries()) {
    const textOps = page.flatMap((line, i) =>
      line.text === '' ? [] : [`BT /${line.bold ? 'F2' : 'F1'} ${FONT_SIZE} Tf ${MARGIN} ${PAGE_HEIGHT - MARGIN - i * LINE_HEIGHT} Td (${escape(line.text)}) Tj ET`],
    );
    const imageOps = n === 0 && drawn ? [`q ${drawn.width} 0 0 ${drawn.height} ${MARGIN} ${PAGE_HEIGHT - MARGIN - drawn.height} cm /Im1 Do Q`] : [];
    const ops = [...imageOps, ...textOps].join('\n');
    const content = add(`<< /Length ${Buffer.byteLength(ops, 'latin1')} >>\nstream\n${ops}\nendstream`);
    pageIds.push(
      add(`<< /Type /Page /Parent ${pagesObj} 0 R /MediaBox [0 0 ${PAGE_WIDTH} ${PAGE_HEIGHT}] /Resources << /Font << /F1 ${font} 0 R /F2 ${bold} 0 R >>${imageObj ? ` /XObject << /Im1 ${imageObj} 0 R >>` : ''} >> /Contents ${content} 0 R >>`),
    );
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesObj} 0 R >>`;
  objects[pagesObj - 1] = `<< /Type /Pages /Kids [${pageIds.map((id) => `${id} 0 R`).join(' ')}] /Count ${pageIds.length} >>`;

  let out = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}
