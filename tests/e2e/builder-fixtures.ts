/**
 * What the builder's end-to-end specs share: photos of a chosen pixel size, the builder's controls
 * by their labels, and the device's line items read with the browser's own IndexedDB API.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import sharp from 'sharp';
import { idbRows } from './helpers.ts';

export interface LocalItem {
  guid: string;
  photoGuid: string;
  imageName: string;
  quantity: number;
  printSizeGuid: string;
  finishingServiceGuid: string | null;
  notes: string;
  cropAttributes: { x: number; y: number; width: number; height: number };
}

/** The device's line items of the order (the builder writes them there at once; the store sends them). */
export async function localItems(page: Page, orderGuid: string): Promise<LocalItem[]> {
  return (await idbRows<LocalItem & { labOrderGuid: string }>(page, 'lineItems')).filter((l) => l.labOrderGuid === orderGuid);
}

type Rgb = { r: number; g: number; b: number };

/**
 * Plain-colour JPEGs of a chosen pixel size (distinct colours: the lab refuses a duplicate). A
 * spec may name its colour, and a colour for its left half (a mirror wrap shows each on its side).
 */
export async function photosOfSize(dir: string, specs: { name: string; width: number; height: number; background?: Rgb; leftHalf?: Rgb }[]): Promise<string[]> {
  return Promise.all(
    specs.map(async (spec, i) => {
      const path = join(dir, spec.name);
      const background = spec.background ?? { r: (i * 70 + 40) % 256, g: (i * 40 + 90) % 256, b: (i * 110 + 20) % 256 };
      const half = spec.leftHalf
        ? [{ input: await sharp({ create: { width: Math.floor(spec.width / 2), height: spec.height, channels: 3, background: spec.leftHalf } }).png().toBuffer(), left: 0, top: 0 }]
        : [];
      const image = sharp({ create: { width: spec.width, height: spec.height, channels: 3, background } }).composite(half);
      writeFileSync(path, await image.jpeg({ quality: 80 }).toBuffer());
      return path;
    }),
  );
}

export const tile = (page: Page, name: string) => page.getByRole('region', { name: 'Photos of this order' }).getByRole('button', { name, exact: true });
export const addButton = (page: Page) => page.getByRole('button', { name: 'ADD TO CART', exact: true });
