import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import { toCents, toDollars } from '../../src/domain/money.ts';
import { albumPhotos, albums, photographs } from '../db/schema.ts';
import type { Db } from '../db/client.ts';
import { perDatabase } from '../db/prepared.ts';
import type { ServerDeps } from '../deps.ts';
import { validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { requireAdmin } from './admin-guard.ts';
import { visibleOrder } from './order-access.ts';
import { recordEvent } from './order-events.ts';
import { refreshFigures } from './order-figures.ts';
import { lockOpenOrder } from './order-lock.ts';
import { signPhotoKey } from './photo-service.ts';

/**
 * Custom album orders (docs/orders.md §1: "shown read-only on the order detail"; §3 Album). The lab
 * enters an album it designed with the photographer on their open order, from that order's photos;
 * its price joins the order's figures (order-figures.ts) and nothing about it changes afterwards.
 */

export const NOT_OPEN_FOR_ALBUM = 'An album can be added only while the order is open.';
export const ALBUM_PHOTO_NOT_IN_ORDER = 'Every album photo must be a photo of this order.';

export interface NewAlbum {
  description: string;
  outer_fabric_name?: string | undefined;
  inner_fabric_name?: string | undefined;
  font?: string | undefined;
  spread_quantity: number;
  stamping?: string | undefined;
  upper_text_value?: string | undefined;
  upper_text_font_size?: number | undefined;
  lower_text_value?: string | undefined;
  lower_text_font_size?: number | undefined;
  text_font?: string | undefined;
  text_color?: string | undefined;
  total_price: string | number;
  album_photos: string[];
}

const text = (value: string | undefined) => value?.trim() || null;

/** POST /lab_orders/{id}/album_line_items (admin): the album on the open order, its photos in order. */
export async function addAlbum(deps: ServerDeps, actor: Actor | null, orderGuid: string, input: NewAlbum) {
  const admin = requireAdmin(actor);
  const { order } = await visibleOrder(deps, admin, orderGuid);
  const guid = await deps.db.transaction(async (tx) => {
    const locked = await lockOpenOrder(tx, order.id, () => validationError(NOT_OPEN_FOR_ALBUM));
    const wanted = [...new Set(input.album_photos)];
    const photos = wanted.length
      ? await tx.select({ id: photographs.id, guid: photographs.guid }).from(photographs).where(and(eq(photographs.labOrderId, locked.id), inArray(photographs.guid, wanted)))
      : [];
    if (photos.length !== wanted.length) throw validationError(ALBUM_PHOTO_NOT_IN_ORDER);
    const idOf = new Map(photos.map((p) => [p.guid, p.id]));
    const [album] = await tx
      .insert(albums)
      .values({
        labOrderId: locked.id,
        description: input.description.trim(),
        outerFabricName: text(input.outer_fabric_name),
        innerFabricName: text(input.inner_fabric_name),
        font: text(input.font),
        spreadQuantity: input.spread_quantity,
        stamping: text(input.stamping),
        upperTextValue: text(input.upper_text_value),
        upperTextFontSize: input.upper_text_font_size ?? null,
        lowerTextValue: text(input.lower_text_value),
        lowerTextFontSize: input.lower_text_font_size ?? null,
        textFont: text(input.text_font),
        textColor: text(input.text_color),
        totalCents: toCents(String(input.total_price)),
      })
      .returning();
    if (!album) throw new Error('album not saved');
    if (input.album_photos.length) {
      await tx.insert(albumPhotos).values(input.album_photos.map((g, position) => ({ albumId: album.id, position, photographId: idOf.get(g) ?? 0 })));
    }
    await refreshFigures(tx, locked.id);
    await recordEvent(tx, locked.id, admin.user.guid, 'album', { detail: `${album.description}, ${album.spreadQuantity} spreads, ${input.album_photos.length} photos` });
    return album.guid;
  });
  const answer = (await albumsOf(deps, order.id)).find((a) => a.guid === guid);
  if (!answer) throw new Error('album not read back');
  return { data: answer };
}

/** An order's albums with their photos (signed addresses, as the line items' photos have). */
// Every order detail asks (most orders have none): built once per database (server/db/prepared.ts).
const albumsOfOrder = perDatabase((db) => db.select().from(albums).where(eq(albums.labOrderId, sql.placeholder('order'))).orderBy(asc(albums.id)).prepare('albums_of_order'));

export async function albumsOf(deps: Pick<ServerDeps, 'db' | 'storage' | 'now'> & { db: Db }, orderId: number) {
  const rows = await albumsOfOrder(deps.db).execute({ order: orderId });
  if (!rows.length) return [];
  const photos = await deps.db
    .select({ albumId: albumPhotos.albumId, photo: photographs })
    .from(albumPhotos)
    .innerJoin(photographs, eq(photographs.id, albumPhotos.photographId))
    .where(inArray(albumPhotos.albumId, rows.map((r) => r.id)))
    .orderBy(asc(albumPhotos.albumId), asc(albumPhotos.position));
  const sign = (key: string) => signPhotoKey(deps, key);
  const albumPhotoAnswers = await Promise.all(
    photos.map(async ({ albumId, photo }) => ({
      albumId,
      photo_guid: photo.guid,
      photo_file_name: photo.fileName,
      // The preview once made (else the original), and the original for a closer look.
      photo_url: await sign(photo.previewKey ?? photo.key),
      photo_full_url: await sign(photo.key),
    })),
  );
  return rows.map((a) => ({
    id: String(a.id),
    guid: a.guid,
    description: a.description,
    outer_fabric_name: a.outerFabricName,
    inner_fabric_name: a.innerFabricName,
    font: a.font,
    spread_quantity: a.spreadQuantity,
    stamping: a.stamping,
    upper_text_value: a.upperTextValue,
    upper_text_font_size: a.upperTextFontSize,
    lower_text_value: a.lowerTextValue,
    lower_text_font_size: a.lowerTextFontSize,
    text_font: a.textFont,
    text_color: a.textColor,
    total_price: toDollars(a.totalCents),
    album_photos: albumPhotoAnswers.filter((p) => p.albumId === a.id).map(({ albumId: _albumId, ...p }) => p),
  }));
}
