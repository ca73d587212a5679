import { Fragment } from 'react';
import type { AlbumLineItem } from '../../api/orders-detail.ts';
import { formatMoney, toCents } from '../../domain/money.ts';
import { truncateFileName } from '../../client-rules/photo-order.ts';
import type { ModalPhoto } from './photo-modal.tsx';

/** A cover text with its size: 'Ada & Grace (24 pt)'. */
const coverText = (value: string | null, size: number | null) => (value ? `${value}${size ? ` (${size} pt)` : ''}` : null);

/**
 * A custom album order, read-only (docs/orders.md §2 Order detail, §3 Album): its make, cover text,
 * spreads and price, and its photos, each opening large in the photo modal.
 */
export function AlbumCard({ album, onPhoto }: { album: AlbumLineItem; onPhoto: (photo: ModalPhoto) => void }) {
  const facts: [string, string | null][] = [
    ['SPREADS', String(album.spread_quantity)],
    ['COVER FABRIC', album.outer_fabric_name],
    ['INSIDE FABRIC', album.inner_fabric_name],
    ['FONT', album.font],
    ['STAMPING', album.stamping],
    ['UPPER TEXT', coverText(album.upper_text_value, album.upper_text_font_size)],
    ['LOWER TEXT', coverText(album.lower_text_value, album.lower_text_font_size)],
    ['TEXT', [album.text_font, album.text_color].filter(Boolean).join(', ') || null],
    ['PRICE', formatMoney(toCents(album.total_price))],
  ];
  return (
    <li className="detail-album" aria-label={album.description}>
      <h3>{album.description}</h3>
      <dl className="detail-facts">
        {facts
          .filter((f): f is [string, string] => f[1] !== null)
          .map(([label, value]) => (
            <Fragment key={label}>
              <dt>{label}</dt>
              <dd>{value}</dd>
            </Fragment>
          ))}
      </dl>
      <ul className="album-photos" aria-label={`Photos of ${album.description}`}>
        {album.album_photos.map((p, i) => (
          <li key={`${p.photo_guid}-${i}`}>
            <button
              type="button"
              className="detail-thumb album-thumb"
              aria-label={`View album photo ${p.photo_file_name}`}
              title={truncateFileName(p.photo_file_name)}
              onClick={() => onPhoto({ name: p.photo_file_name, url: p.photo_url, originalUrl: p.photo_full_url })}
            >
              <img src={p.photo_url} alt="" loading="lazy" />
            </button>
          </li>
        ))}
      </ul>
    </li>
  );
}
