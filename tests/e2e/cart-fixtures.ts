/**
 * A real cart for the cart review and preview specs: a new photographer, an order with photos
 * uploaded through the upload screen, and line items put in through the lab's own API
 * (POST /lab_orders/:guid/line_items, priced by the server from its catalogue).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { allowedDetails, type FinishingCategory } from '../../src/domain/catalogue.ts';
import type { LineItemPayload } from '../../src/domain/line-item-payload.ts';
import { photosOfSize } from './builder-fixtures.ts';
import { signIn, storedToken } from './helpers.ts';
import { photoDir } from './upload-fixtures.ts';

export const PHOTO_COLOURS = { red: { r: 220, g: 40, b: 40 }, blue: { r: 40, g: 60, b: 210 }, green: { r: 40, g: 170, b: 80 }, grey: { r: 128, g: 128, b: 128 } } as const;
/** Two colours side by side: left half, then right half. */
const SPLITS = {
  /** Red on the left half, blue on the right. */
  split: [PHOTO_COLOURS.red, PHOTO_COLOURS.blue],
  /** A saturated blue beside a neutral grey (the soft proof's gamut warning marks one, not the other). */
  'blue-grey': [{ r: 0, g: 0, b: 255 }, PHOTO_COLOURS.grey],
} as const;
/** A plain colour, or two halves (SPLITS). */
export type PhotoColour = keyof typeof PHOTO_COLOURS | keyof typeof SPLITS;

export interface Cart {
  orderGuid: string;
  token: string;
  /** Photo guid by file name. */
  photos: Map<string, string>;
}

/** Signs a new photographer up and in on `page` (landing on the orders list); answers the token. */
export async function signUpPhotographer(page: Page): Promise<string> {
  const who = { email: `cart-${randomBytes(4).toString('hex')}@studio.example`, password: 'platinum-print-7' };
  const created = await page.request.post('/api/v2/users', {
    data: { email: who.email, first_name: 'Dorothea', last_name: 'Lange', password: who.password, password_confirmation: who.password },
  });
  expect(created.ok()).toBe(true);
  await page.goto('/login');
  await signIn(page, who);
  return (await storedToken(page)) ?? '';
}

/** Uploads `photos` (3000x2000 px) into a new order of the user signed in on `page`, through the app. */
export async function orderWithPhotos(page: Page, token: string, photos: { name: string; colour: PhotoColour }[]): Promise<Cart> {
  const dir = photoDir();
  const files = await photosOfSize(
    dir,
    photos.map((p) => ({
      name: p.name,
      width: 3000,
      height: 2000,
      ...(p.colour === 'split' || p.colour === 'blue-grey'
        ? { background: SPLITS[p.colour][1], leftHalf: SPLITS[p.colour][0] }
        : { background: PHOTO_COLOURS[p.colour] }),
    })),
  );
  await page.goto('/lab-orders/upload');
  await page.getByLabel('Order Name', { exact: true }).fill(`Cart ${randomBytes(4).toString('hex')}`);
  await page.getByRole('button', { name: 'SAVE AND UPLOAD' }).click();
  await expect(page).toHaveURL(/\/lab-orders\/[^/]+\/upload-progress$/);
  const orderGuid = /\/lab-orders\/([^/]+)\/upload-progress$/.exec(page.url())?.[1] ?? '';
  await page.getByLabel('SELECT PHOTOS TO UPLOAD').setInputFiles(files);
  await expect(page.getByText(`${photos.length} of ${photos.length} photos uploaded`)).toBeVisible({ timeout: 60_000 });
  rmSync(dir, { recursive: true, force: true });

  const listed = await page.request.get(`/api/v2/lab_orders/${orderGuid}/lab_order_photographs?per_page=100`, { headers: { token } });
  const body = (await listed.json()) as { data: { guid: string; photo_file_name: string }[] };
  return { orderGuid, token, photos: new Map(body.data.map((p) => [p.photo_file_name, p.guid])) };
}

/** Signs a new photographer up and in, and uploads `photos` (3000x2000 px) into a new order. */
export async function cartWithPhotos(page: Page, photos: { name: string; colour: PhotoColour }[]): Promise<Cart> {
  return orderWithPhotos(page, await signUpPhotographer(page), photos);
}

interface Paper {
  name: string;
  print_size_pricings: { guid: string; name: string; price: number }[];
}
interface FinishingGroup {
  finishing_category: FinishingCategory;
  services: { guid: string; name: string; detail_pricings: Partial<Record<string, { guid: string; is_default: boolean }[]>> }[];
}

/** The print-size-pricing guid and price of a paper's size, read from the lab's catalogue. */
export async function printSize(request: APIRequestContext, paper: string, size: string): Promise<{ guid: string; price: number }> {
  const papers = ((await (await request.get('/api/v2/papers_with_details')).json()) as { data: Paper[] }).data;
  const found = papers.find((p) => p.name === paper)?.print_size_pricings.find((s) => s.name === size);
  if (!found) throw new Error(`the catalogue has no ${paper} ${size}`);
  return found;
}

/** The first service of a finishing category for a print size, with each detail's default (or first) choice. */
export async function finishing(request: APIRequestContext, printSizeGuid: string, category: FinishingCategory) {
  const groups = ((await (await request.get(`/api/v2/products/${printSizeGuid}/finishing_services`)).json()) as { data: FinishingGroup[] }).data;
  const service = groups.find((g) => g.finishing_category === category)?.services[0];
  if (!service) throw new Error(`no ${category} for print size ${printSizeGuid}`);
  const details = allowedDetails(category).flatMap((kind) => {
    const options = service.detail_pricings[kind] ?? [];
    const chosen = options.find((o) => o.is_default) ?? options[0];
    return chosen ? [chosen.guid] : [];
  });
  return { guid: service.guid, name: service.name, details };
}

export interface ItemSpec {
  photo: string;
  paper: string;
  size: string;
  quantity?: number;
  notes?: string;
  mat?: boolean;
  /** A finishing category other than the mat (its first service, default details). */
  finishing?: FinishingCategory;
  /** Percent of the photo; the whole photo when not given. */
  crop?: { x: number; y: number; width: number; height: number };
}

/** Puts line items into the cart through the lab's API; answers their guids in the order given. */
export async function addLineItems(request: APIRequestContext, cart: Cart, items: ItemSpec[]): Promise<string[]> {
  const payloads: LineItemPayload[] = [];
  for (const item of items) {
    const size = await printSize(request, item.paper, item.size);
    const category = item.finishing ?? (item.mat ? 'four_ply_mat' : null);
    const mat = category ? await finishing(request, size.guid, category) : null;
    const crop = item.crop ?? { x: 0, y: 0, width: 100, height: 100 };
    const photoGuid = cart.photos.get(item.photo) ?? '';
    payloads.push({
      guid: randomUUID(),
      imageName: item.photo,
      quantity: item.quantity ?? 1,
      print_size: size.guid,
      finishing_service: mat?.guid ?? null,
      finishing_service_detail: mat?.details[0] ?? null,
      finishing_service_details: mat?.details ?? [],
      print_border: 'none',
      notes: item.notes ?? '',
      source_photograph_guid: photoGuid,
      photograph: { source_photograph_guid: photoGuid, crop_x: crop.x, crop_y: crop.y, crop_h: crop.height, crop_w: crop.width, photo_meta: {} },
    });
  }
  const answer = await request.post(`/api/v2/lab_orders/${cart.orderGuid}/line_items`, { headers: { token: cart.token }, data: { line_items: payloads } });
  expect(answer.status(), await answer.text()).toBe(201);
  return payloads.map((p) => p.guid);
}

export interface LabCart {
  /** `file name × quantity`, sorted. */
  items: string[];
  subtotal: number;
  discount: number;
  shipping: number;
  total: number;
  status: string;
}

/** What the lab holds for the order, read through its API. */
export async function atLab(request: APIRequestContext, cart: Cart): Promise<LabCart> {
  const answer = await request.get(`/api/v2/lab_orders/${cart.orderGuid}/retrieve_full_order`, { headers: { token: cart.token } });
  expect(answer.ok()).toBe(true);
  const { data } = (await answer.json()) as {
    data: { attributes: { subtotal: number; discount: number; shipping_total: number; total: number; status: string }; line_items: { photo_file_name: string; quantity: number }[] };
  };
  const a = data.attributes;
  return {
    items: data.line_items.map((l) => `${l.photo_file_name} × ${l.quantity}`).sort(),
    subtotal: a.subtotal,
    discount: a.discount,
    shipping: a.shipping_total,
    total: a.total,
    status: a.status,
  };
}

/** What the review screen shows: each line item's `file name × quantity`, sorted. */
export async function onScreen(page: Page): Promise<string[]> {
  const rows = page.getByRole('list', { name: 'Line items' }).getByRole('listitem');
  const shown = await rows.evaluateAll((els) =>
    els.map((el) => `${el.getAttribute('aria-label') ?? ''} × ${el.querySelector('.qty-value')?.textContent?.trim() ?? ''}`),
  );
  return shown.sort();
}

/** Waits until the lab holds exactly the line items the screen shows (the change has been sent). */
export async function expectLabMatchesScreen(page: Page, request: APIRequestContext, cart: Cart): Promise<void> {
  const screen = await onScreen(page);
  await expect.poll(async () => (await atLab(request, cart)).items, { timeout: 20_000, message: 'the lab holds what the screen shows' }).toEqual(screen);
}
