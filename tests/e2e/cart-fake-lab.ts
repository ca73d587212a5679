/**
 * The lab's side of the cart calls (BUILDER-CONTRACT.md, Wire) played in the browser: the cart
 * screens read and change line items only through the order store, which fills itself from
 * retrieve_full_order and sends quantity changes and deletes. Until the line-item server and the
 * builder land, this is how a spec puts a cart in front of the screens; it answers in the
 * contract's shapes and keeps what the store sends, so it holds after the real store is merged.
 */
import type { Page, Route } from '@playwright/test';
import sharp from 'sharp';
import type { ServerLineItem } from '../../src/domain/line-items.ts';

export interface FakeOrder {
  guid: string;
  order_name: string;
  status: string;
  discount: number;
  credit_applied: number;
  shipping_total: number;
  boutique_shipping: boolean;
  boutique_shipping_price: number;
}

export interface FakeLab {
  order: FakeOrder;
  items: ServerLineItem[];
  /** retrieve_full_order calls so far. */
  reads: number;
  /** Runs before each retrieve_full_order answer (e.g. the lab's crop job finishing). */
  onRead?: (reads: number) => void;
}

/** A solid-colour PNG, served at /test-photos/<name>.png. */
export const PHOTO_COLOURS = { red: { r: 220, g: 40, b: 40 }, blue: { r: 40, g: 60, b: 210 }, green: { r: 40, g: 170, b: 80 } } as const;
/** A solid colour, or 'split': red on the left half, blue on the right (a mirror wrap shows each on its own side). */
export type PhotoColour = keyof typeof PHOTO_COLOURS | 'split';

let n = 0;
export function lineItem(over: { paper: string; size: string; print: number; colour: PhotoColour; quantity?: number; cropped?: boolean; finishing?: ServerLineItem['finishing_service'] } & Partial<ServerLineItem>): ServerLineItem {
  n += 1;
  const { paper, size, print, colour, quantity = 1, cropped = true, finishing = null, ...rest } = over;
  const finishingPrice = finishing?.price ?? 0;
  return {
    guid: `li-${n}-${Math.random().toString(36).slice(2, 8)}`,
    photograph_guid: `ph-${n}`,
    photograph_url: `/test-photos/${colour}.png`,
    photograph_cropped_url: cropped ? `/test-photos/${colour}-cropped.png` : null,
    photograph_full_url: `/test-photos/${colour}.png`,
    photo_file_name: `${String(n).padStart(3, '0')}_${colour}_landscape.jpg`,
    print_size_attributes: { paper, paper_guid: `paper-${paper}`, print_size: size, print_size_guid: `size-${paper}-${size}`, price: print },
    print_border: 'none',
    external_id: null,
    notes: null,
    internal_notes: null,
    photograph_attributes: { crop_x: 0, crop_y: 0, crop_h: 100, crop_w: 100, aspect: 1.5 },
    quantity,
    subtotal: (print + finishingPrice) * quantity,
    finishing_service: finishing,
    ...rest,
  };
}

const fullOrder = (lab: FakeLab) => {
  const subtotal = lab.items.reduce((s, i) => s + i.subtotal, 0);
  return {
    data: {
      id: lab.order.guid,
      type: 'lab_order',
      attributes: { ...lab.order, subtotal, total: subtotal - lab.order.discount - lab.order.credit_applied + lab.order.shipping_total, notes: null },
      line_items: lab.items,
    },
    meta: {},
  };
};

const json = (route: Route, status: number, body: unknown) => route.fulfill({ status, contentType: 'application/json', body: JSON.stringify(body) });

/** Plays the lab for one order on this page (service workers must be blocked, or they would answer first). */
export async function fakeLab(page: Page, lab: FakeLab): Promise<FakeLab> {
  const photos = new Map<string, Buffer>();
  for (const [name, { r, g, b }] of Object.entries(PHOTO_COLOURS)) {
    const png = await sharp({ create: { width: 600, height: 400, channels: 3, background: { r, g, b } } }).png().toBuffer();
    photos.set(name, png);
  }
  const half = (c: { r: number; g: number; b: number }) => sharp({ create: { width: 300, height: 400, channels: 3, background: c } }).png().toBuffer();
  const split = await sharp({ create: { width: 600, height: 400, channels: 3, background: PHOTO_COLOURS.blue } })
    .composite([{ input: await half(PHOTO_COLOURS.red), left: 0, top: 0 }])
    .png()
    .toBuffer();
  photos.set('split', split);
  await page.route('**/test-photos/*.png', (route) => {
    const name = /\/test-photos\/([a-z]+)/.exec(route.request().url())?.[1] ?? '';
    const body = photos.get(name);
    return body ? route.fulfill({ status: 200, contentType: 'image/png', body, headers: { 'cache-control': 'max-age=3600' } }) : route.fulfill({ status: 404 });
  });
  await page.route(`**/api/v2/lab_orders/${lab.order.guid}/retrieve_full_order`, (route) => {
    lab.reads += 1;
    lab.onRead?.(lab.reads);
    return json(route, 200, fullOrder(lab));
  });
  await page.route('**/api/v2/line_items/**', async (route) => {
    const req = route.request();
    const guid = /\/line_items\/([^/]+)/.exec(req.url())?.[1] ?? '';
    const item = lab.items.find((i) => i.guid === guid);
    if (!item) return json(route, 404, { error: { status: 404, class_name: 'NotFound', user_message: { message: 'Line item not found' } } });
    if (req.method() === 'DELETE') lab.items = lab.items.filter((i) => i !== item);
    else if (req.method() === 'PATCH') {
      const body = req.postDataJSON() as { line_items?: [{ quantity: number }]; qty?: number };
      item.quantity = body.line_items?.[0]?.quantity ?? body.qty ?? item.quantity;
      item.subtotal = (item.print_size_attributes.price + (item.finishing_service?.price ?? 0)) * item.quantity;
    } else return route.fallback();
    return json(route, 200, fullOrder(lab));
  });
  return lab;
}
