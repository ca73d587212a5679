import type { PreviewEffect } from '../../client-rules/cart-preview.ts';
import type { PixelSize } from '../../domain/print-size.ts';

/** A rectangle on the preview canvas, in canvas pixels. */
export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * One edge of a wrapped canvas: where it is drawn, and for a mirror wrap which strip of the
 * picture is flipped into it (source in the drawn picture's pixels).
 */
export interface WrapEdge {
  side: 'top' | 'right' | 'bottom' | 'left';
  dest: Rect;
  source: Rect;
}

export interface PreviewLayout {
  canvas: PixelSize;
  /** Where the picture itself is drawn. */
  picture: Rect;
  /** The print's face: for a gallery wrap the picture minus its folded sides. */
  face: Rect;
  /** The wrapped sides; empty for a flat print or a circle. */
  edges: WrapEdge[];
}

/**
 * How a picture of `drawn` size is laid out on the preview canvas:
 *  - flat and circle: the picture alone;
 *  - gallery wrap: the picture is the whole canvas (its crop already holds the sides, which is why
 *    a 16x24 gallery wrap is cropped 20x28), its outer `border` pixels fold round as the sides;
 *  - white, black and mirror wraps: the picture is the face, and sides of `border` pixels are
 *    added round it (a colour, or the picture's own edge flipped).
 * The border is never more than a third of the picture's shorter side, so a tiny picture keeps a face.
 */
export function previewLayout(effect: PreviewEffect, drawn: PixelSize, border: number): PreviewLayout {
  const whole = { x: 0, y: 0, width: drawn.width, height: drawn.height };
  if (effect.kind !== 'wrap') return { canvas: drawn, picture: whole, face: whole, edges: [] };
  const b = Math.max(0, Math.min(Math.round(border), Math.floor(Math.min(drawn.width, drawn.height) / 3)));
  if (effect.wrap === 'gallery') {
    const face = { x: b, y: b, width: drawn.width - 2 * b, height: drawn.height - 2 * b };
    return { canvas: drawn, picture: whole, face, edges: sides(drawn, b, 0, face) };
  }
  const canvas = { width: drawn.width + 2 * b, height: drawn.height + 2 * b };
  const picture = { x: b, y: b, width: drawn.width, height: drawn.height };
  return { canvas, picture, face: picture, edges: sides(canvas, b, b, picture) };
}

/** The four sides of width `b` round `face` on a canvas, with the picture strip each mirrors. */
function sides(canvas: PixelSize, b: number, offset: number, face: Rect): WrapEdge[] {
  if (b === 0) return [];
  const w = face.width;
  const h = face.height;
  // The source strips are the picture's own outer `b` pixels (in picture coordinates).
  const pw = offset === 0 ? canvas.width : w;
  const ph = offset === 0 ? canvas.height : h;
  return [
    { side: 'top', dest: { x: face.x, y: 0, width: w, height: b }, source: { x: face.x - offset, y: 0, width: w, height: b } },
    { side: 'bottom', dest: { x: face.x, y: canvas.height - b, width: w, height: b }, source: { x: face.x - offset, y: ph - b, width: w, height: b } },
    { side: 'left', dest: { x: 0, y: face.y, width: b, height: h }, source: { x: 0, y: face.y - offset, width: b, height: h } },
    { side: 'right', dest: { x: canvas.width - b, y: face.y, width: b, height: h }, source: { x: pw - b, y: face.y - offset, width: b, height: h } },
  ];
}
