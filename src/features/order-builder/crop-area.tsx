import { memo, useRef, useState } from 'react';
import type { Paper } from '../../contract/catalogue.ts';
import type { CropArea, CropOptions } from '../../domain/crop.ts';
import { truncateFileName } from '../../client-rules/photo-order.ts';
import { formatPpi, type ResolutionCheck } from '../../domain/print-resolution.ts';
import type { PhotoEntry } from '../../offline/db.ts';
import { ProofToggles } from '../../proof/page/proof-toggles.tsx';
import { useSoftProof } from '../../proof/page/use-soft-proof.ts';
import { PhotoThumb, cropProofSource, useCropImage } from './photo-thumb.tsx';
import { useListWindow } from './use-window.ts';
import { moduleLoader, useModule } from '../../ui/use-module.ts';

// The cropper's library is needed only once a single photo is selected: the builder opens with
// none, so its code stays out of the first screen and is fetched with the first selection (the
// photo shows uncropped meanwhile).
const cropperModule = moduleLoader(() => import('react-easy-crop'));

/** What the crop area knows of each selected photo once a paper and print size are chosen. */
export interface PhotoCropInfo {
  crop: CropArea;
  options: CropOptions;
  resolution: ResolutionCheck | null;
}

export const SELECT_A_PHOTO = 'SELECT A PHOTO TO BEGIN';

function ResolutionNote({ check }: { check: ResolutionCheck | null }) {
  if (!check) return null;
  return (
    <p className={`resolution resolution-${check.level}`} role={check.level === 'ok' ? undefined : 'note'}>
      Effective resolution: {formatPpi(check.ppi)}
      {check.message ? <span className="resolution-message"> {check.message}</span> : null}
    </p>
  );
}

/** One photo with react-easy-crop, in the print size's aspect (or round for deckled circles). */
function SingleCrop(props: {
  photo: PhotoEntry;
  paper: Paper | null;
  info: PhotoCropInfo | null;
  onCrop: (area: CropArea) => void;
  onFlip: (flipped: boolean) => void;
}) {
  const { photo, info, paper } = props;
  const profile = paper?.icc_profile ?? null;
  const proof = useSoftProof({ photo: photo.id, source: cropProofSource(photo), paperName: paper?.name ?? '', profile });
  const original = useCropImage(photo);
  // The proof, once made, takes the photo's place: same size, so the crop stays where it was.
  const image = proof.image ?? original;
  const Cropper = useModule(cropperModule)?.default;
  const [position, setPosition] = useState({ x: 0, y: 0 });
  const [zoom, setZoom] = useState(1);
  // Only a crop the photographer made is kept: the cropper also reports crops while it lays out
  // (and again when the preview replaces the thumbnail), measured on screen pixels, which would
  // overwrite the domain's exact centred crop with a rounded or half-laid-out one.
  const touched = useRef(false);
  const zoomTo = (value: number) => {
    touched.current = true;
    setZoom(value);
  };
  return (
    <div className="single-crop">
      <div className="cropper-frame">
        {image && info && Cropper ? (
          <Cropper
            image={image}
            crop={position}
            zoom={zoom}
            aspect={info.options.aspect}
            cropShape={info.options.shape}
            initialCroppedAreaPercentages={info.crop}
            onCropChange={setPosition}
            onZoomChange={zoomTo}
            onInteractionStart={() => {
              touched.current = true;
            }}
            onCropComplete={(area) => {
              if (touched.current) props.onCrop(area);
            }}
            mediaProps={{ alt: photo.name }}
          />
        ) : image ? (
          <img className="uncropped" src={image} alt={photo.name} />
        ) : (
          <span className="photo-placeholder" role="img" aria-label={photo.name} />
        )}
      </div>
      <p className="crop-caption">{photo.name}</p>
      {paper ? <ProofToggles paperName={paper.name} profile={profile} view={proof} /> : null}
      {info ? (
        <div className="crop-tools">
          <button type="button" className="button" onClick={() => props.onFlip(!info.options.flipped)}>
            FLIP ORIENTATION
          </button>
          <label className="zoom-field">
            ZOOM
            <input type="range" min={1} max={3} step={0.05} value={zoom} onChange={(e) => zoomTo(Number(e.target.value))} />
          </label>
        </div>
      ) : (
        <p className="builder-hint">Choose a paper and print size to crop this photo.</p>
      )}
      <ResolutionNote check={info?.resolution ?? null} />
    </div>
  );
}

/** Height of one row of the selection grid (order-builder.css .grid-tile plus its gap). */
const GRID_ROW_PX = 176;
/** Width of a grid column: how many columns fit is measured from the area's width. */
const GRID_COLUMN_PX = 150;

const GridTile = memo(function GridTile({ photo, info }: { photo: PhotoEntry; info: PhotoCropInfo | null }) {
  return (
    <li className="grid-tile">
      <PhotoThumb photo={photo} />
      <span className="grid-name">{truncateFileName(photo.name)}</span>
      {info?.resolution ? <span className={`ppi-badge resolution-${info.resolution.level}`}>{formatPpi(info.resolution.ppi)}</span> : null}
    </li>
  );
});

/** Several selected photos as a grid, windowed by rows (SELECT ALL on 1,000 photos stays smooth). */
function SelectionGrid({ photos, infoOf, width }: { photos: readonly PhotoEntry[]; infoOf: (p: PhotoEntry) => PhotoCropInfo | null; width: number }) {
  const columns = Math.max(1, Math.floor(width / GRID_COLUMN_PX));
  const rows = Math.ceil(photos.length / columns);
  const [ref, win] = useListWindow(rows, GRID_ROW_PX, 'y');
  return (
    <div className="selection-grid" ref={ref}>
      <ul style={{ height: win.total, gridTemplateColumns: `repeat(${columns}, 1fr)`, paddingTop: win.offset }} aria-label={`${photos.length} selected photos`}>
        {photos.slice(win.start * columns, win.end * columns).map((p) => (
          <GridTile key={p.id} photo={p} info={infoOf(p)} />
        ))}
      </ul>
    </div>
  );
}

/** The centre of the builder (docs/orders.md §2): nothing, one photo with the cropper, or a grid. */
export function CropStage(props: {
  selected: readonly PhotoEntry[];
  /** The paper chosen: with a profile, the crop view offers its soft proof. */
  paper: Paper | null;
  infoOf: (p: PhotoEntry) => PhotoCropInfo | null;
  onCrop: (photoGuid: string, area: CropArea) => void;
  onFlip: (photoGuid: string, flipped: boolean) => void;
}) {
  const [width, setWidth] = useState(600);
  const measure = (el: HTMLElement | null) => {
    if (el && Math.abs(el.clientWidth - width) > 1) setWidth(el.clientWidth);
  };
  const [only] = props.selected;
  return (
    <section className="crop-area" aria-label="Crop" ref={measure}>
      {!only ? (
        <p className="select-to-begin">{SELECT_A_PHOTO}</p>
      ) : props.selected.length === 1 ? (
        (() => {
          const info = props.infoOf(only);
          // A new aspect or orientation starts the cropper afresh from the domain's crop.
          const key = `${only.id}|${info?.options.aspect ?? 'none'}|${info?.options.shape ?? ''}`;
          return (
            <SingleCrop
              key={key}
              photo={only}
              paper={props.paper}
              info={info}
              onCrop={(a) => props.onCrop(only.id, a)}
              onFlip={(f) => props.onFlip(only.id, f)}
            />
          );
        })()
      ) : (
        <SelectionGrid photos={props.selected} infoOf={props.infoOf} width={width} />
      )}
    </section>
  );
}
