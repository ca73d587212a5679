import { useEffect, useRef, useState } from 'react';
import { previewBorderWidth, previewEffect, previewSize } from '../../client-rules/cart-preview.ts';
import { lacksCroppedImage } from '../../client-rules/cart-review.ts';
import { cropPixels } from '../../domain/crop.ts';
import type { PaperIccProfile } from '../../contract/catalogue.ts';
import type { LocalLineItem } from '../../offline/order-store.ts';
import { ProofToggles } from '../../proof/page/proof-toggles.tsx';
import { useSoftProof } from '../../proof/page/use-soft-proof.ts';
import { previewLayout, type Rect, type WrapEdge } from './preview-layout.ts';

// The folded sides of a wrap are in shadow; this much black over them reads as a fold without hiding the picture.
const SIDE_SHADE = 'rgba(0, 0, 0, 0.28)';
const WRAP_COLOURS = { white: '#ffffff', black: '#111111' } as const;

type Status = 'loading' | 'drawn' | 'failed';

function loadImage(url: string): Promise<HTMLImageElement> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.decoding = 'async';
    img.addEventListener('load', () => resolve(img), { once: true });
    img.addEventListener('error', () => reject(new Error(`could not load ${url}`)), { once: true });
    img.src = url;
  });
}

/** Draws the mirrored strip of the picture into one wrap side. */
function drawMirrored(ctx: CanvasRenderingContext2D, source: HTMLCanvasElement, edge: WrapEdge): void {
  const { dest, source: src } = edge;
  ctx.save();
  const vertical = edge.side === 'top' || edge.side === 'bottom';
  ctx.translate(vertical ? dest.x : dest.x + dest.width, vertical ? dest.y + dest.height : dest.y);
  ctx.scale(vertical ? 1 : -1, vertical ? -1 : 1);
  ctx.drawImage(source, src.x, src.y, src.width, src.height, 0, 0, dest.width, dest.height);
  ctx.restore();
}

const fill = (ctx: CanvasRenderingContext2D, r: Rect, style: string) => {
  ctx.fillStyle = style;
  ctx.fillRect(r.x, r.y, r.width, r.height);
};

/** What a drawing depends on. */
type Look = Pick<LocalLineItem, 'photoUrl' | 'paper' | 'printSize' | 'cropAttributes'>;

/**
 * Draws one line item as its paper shows it: the four wraps, a deckled circle, or a flat print.
 * `img` is the photo or its soft proof (the same picture, so the item's crop applies to either).
 */
function draw(canvas: HTMLCanvasElement, img: HTMLImageElement, item: Look): void {
  const natural = { width: img.naturalWidth, height: img.naturalHeight };
  // The lab's cropped image is the print already; until it exists, the stored crop of the photo shows.
  const crop = lacksCroppedImage(item.photoUrl)
    ? cropPixels(natural, item.cropAttributes)
    : { left: 0, top: 0, width: natural.width, height: natural.height };
  const drawn = previewSize({ width: crop.width, height: crop.height });
  const effect = previewEffect(item.paper);
  const layout = previewLayout(effect, drawn, previewBorderWidth(item.printSize) ?? 0);

  // The picture alone first, at its drawn size: the mirror wrap flips strips of it.
  const picture = document.createElement('canvas');
  picture.width = drawn.width;
  picture.height = drawn.height;
  picture.getContext('2d')?.drawImage(img, crop.left, crop.top, crop.width, crop.height, 0, 0, drawn.width, drawn.height);

  canvas.width = layout.canvas.width;
  canvas.height = layout.canvas.height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  ctx.clearRect(0, 0, canvas.width, canvas.height);
  if (effect.kind === 'circle') {
    ctx.save();
    ctx.beginPath();
    ctx.ellipse(drawn.width / 2, drawn.height / 2, drawn.width / 2, drawn.height / 2, 0, 0, Math.PI * 2);
    ctx.clip();
    ctx.drawImage(picture, 0, 0);
    ctx.restore();
    return;
  }
  ctx.drawImage(picture, layout.picture.x, layout.picture.y);
  if (effect.kind !== 'wrap') return;
  for (const edge of layout.edges) {
    if (effect.wrap === 'white' || effect.wrap === 'black') fill(ctx, edge.dest, WRAP_COLOURS[effect.wrap]);
    else if (effect.wrap === 'mirror') drawMirrored(ctx, picture, edge);
    fill(ctx, edge.dest, SIDE_SHADE);
  }
}

/**
 * The chosen line item drawn on a canvas, with the soft proof of its paper when the lab attached
 * a profile; says so when its photo cannot be had (offline, not cached).
 */
export function PreviewCanvas({ item, profile }: { item: LocalLineItem; profile: PaperIccProfile | null }) {
  const ref = useRef<HTMLCanvasElement>(null);
  const effect = previewEffect(item.paper);
  const { photoUrl, paper, printSize } = item;
  const { x, y, width, height } = item.cropAttributes;
  const proof = useSoftProof({ photo: item.guid, source: photoUrl, paperName: paper, profile });
  const shownUrl = proof.image ?? photoUrl;
  // The live query hands a new object on every change to the table: redraw only when the look changes.
  const look = JSON.stringify([shownUrl, paper, printSize, x, y, width, height]);
  const [drawn, setDrawn] = useState<{ look: string; status: Status } | null>(null);
  const status: Status = drawn?.look === look ? drawn.status : 'loading';

  useEffect(() => {
    let live = true;
    const crop = { x, y, width, height, aspect: null };
    loadImage(shownUrl).then(
      (img) => {
        if (!live || !ref.current) return;
        draw(ref.current, img, { photoUrl, paper, printSize, cropAttributes: crop });
        setDrawn({ look, status: 'drawn' });
      },
      () => live && setDrawn({ look, status: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [look, shownUrl, photoUrl, paper, printSize, x, y, width, height]);

  const what = effect.kind === 'wrap' ? `${item.paper}` : effect.kind === 'circle' ? 'a deckled circle' : `${item.paper}, flat`;
  return (
    <figure className="preview-figure">
      <canvas
        ref={ref}
        className="preview-canvas"
        data-effect={effect.kind === 'wrap' ? effect.wrap : effect.kind}
        data-status={status}
        role="img"
        aria-label={`${item.imageName} as a ${item.printSize} print on ${what}`}
      />
      {status === 'loading' ? <p role="status">loading...</p> : null}
      {status === 'failed' ? (
        <p role="alert" className="load-error">
          This photo cannot be shown: it is not on this device and the lab cannot be reached. Connect once to see it here.
        </p>
      ) : null}
      <figcaption>
        {item.paper} · {item.printSize} · {item.printBorder}
      </figcaption>
      <ProofToggles paperName={paper} profile={profile} view={proof} />
    </figure>
  );
}
