import { DEFAULT_TURNAROUND } from '../../src/domain/turnaround.ts';
import type { CatalogueFileInput } from './catalogue-file.ts';

/**
 * The catalogue a new lab starts with, loaded on first start. Prices follow what professional
 * labs charged in 2026 for pro lustre, matte and metallic papers, stretched canvas, hand-cut mats,
 * mounts and framing. A lab replaces it with its own file (npm run catalogue:load).
 *
 * Finishing prices grow with the piece: mats and mounts with area, frames with perimeter, each
 * rounded to the half dollar as a price list would print them.
 */

type Size = [name: string, price: number];

const PHOTO_SIZES: Size[] = [
  ['4x6', 0.65],
  ['5x7', 1.45],
  ['8x10', 3.1],
  ['8x12', 3.4],
  ['11x14', 7.5],
  ['12x18', 9.8],
  ['16x20', 18],
  ['16x24', 21],
  ['20x30', 32],
  ['24x36', 45],
];

const CANVAS_SIZES: Size[] = [
  ['8x10', 45],
  ['11x14', 62],
  ['12x18', 72],
  ['16x20', 89],
  ['16x24', 98],
  ['20x30', 135],
  ['24x36', 175],
  ['30x40', 235],
];

const BRUSHED_CANVAS_SIZES: Size[] = [
  ['8x10', 14],
  ['11x14', 22],
  ['16x20', 38],
  ['16x24', 44],
  ['20x30', 62],
];

const CIRCLE_SIZES: Size[] = [
  ['8x8', 12],
  ['10x10', 16],
  ['12x12', 22],
  ['16x16', 34],
];

/** The mat sizes a print size takes: the next standard frame openings up. */
const MAT_SIZES: Record<string, string[]> = {
  '4x6': ['8x10'],
  '5x7': ['8x10', '11x14'],
  '8x10': ['11x14', '16x20'],
  '8x12': ['12x16', '16x20'],
  '11x14': ['16x20', '18x24'],
  '12x18': ['16x24', '20x24'],
  '16x20': ['20x24', '24x30'],
  '16x24': ['20x28', '24x30'],
  '20x30': ['24x36'],
  '24x36': ['30x40'],
  '8x8': ['12x12'],
  '10x10': ['14x14'],
  '12x12': ['16x16'],
  '16x16': ['20x20'],
};

const dims = (name: string): [number, number] => {
  const [w, h] = name.split('x').map(Number);
  return [w ?? 0, h ?? 0];
};
const area = (name: string) => dims(name)[0] * dims(name)[1];
const perimeter = (name: string) => 2 * (dims(name)[0] + dims(name)[1]);
const halfDollar = (dollars: number) => Math.round(dollars * 2) / 2;
// Print prices are kept to the nickel: a 4x6 costs cents, not half dollars.
const nickel = (dollars: number) => Math.round(dollars * 20) / 20;
const scaled = (sizes: Size[], factor: number, extra = 0): Size[] => sizes.map(([n, p]) => [n, nickel(p * factor + extra)]);

// Hand-cut 4-ply mats: 6 cents a square inch of mat board, at least $8; 8-ply costs 1.75 times as much.
const mat4 = (matSize: string) => Math.max(8, halfDollar(area(matSize) * 0.06));
const MAT_8PLY_FACTOR = 1.75;
// Mounting on gator board: 3 cents a square inch, at least $4; a 1" border adds a fifth.
const mount = (size: string) => Math.max(4, halfDollar(area(size) * 0.03));

/** Mat board classes: standard at no extra cost; conservation and museum (cotton rag) board cost more. */
function matClasses(matSize: string) {
  return [
    { name: 'Standard', price: 0, default: true },
    { name: 'Conservation (acid-free)', price: halfDollar(area(matSize) * 0.02) },
    { name: 'Museum (cotton rag)', price: halfDollar(area(matSize) * 0.05) },
  ];
}

const MOUNT_COLORS = [
  { name: 'Black', price: 0, default: true },
  { name: 'White', price: 0 },
];

function frameMats(size: string) {
  const mat = halfDollar(perimeter(size) * 0.25);
  return [
    { name: 'No Mat', price: 0, default: true },
    { name: 'White 4-Ply Mat', price: mat },
    { name: 'Black 4-Ply Mat', price: mat },
  ];
}

function glass(size: string) {
  return [
    { name: 'ACRYLIC', price: 0, default: true },
    { name: 'Museum Acrylic (UV, anti-reflective)', price: halfDollar(area(size) * 0.12) },
  ];
}

const STAINS = [
  { name: 'Natural', price: 0, default: true },
  { name: 'Espresso', price: 12 },
  { name: 'Gray Wash', price: 12 },
];

function photoFinishing(size: string, opts: { mats: boolean; desktop: boolean }) {
  const list: NonNullable<CatalogueFileInput['papers'][number]['print_sizes'][number]['finishing']> = [];
  if (opts.mats) {
    for (const m of MAT_SIZES[size] ?? []) list.push({ category: 'four_ply_mat', name: `${m} Mat`, price: mat4(m), details: { mat_class: matClasses(m) } });
    for (const m of MAT_SIZES[size] ?? []) {
      list.push({ category: 'eight_ply_mat', name: `${m} Mat`, price: halfDollar(mat4(m) * MAT_8PLY_FACTOR), details: { mat_class: matClasses(m) } });
    }
  }
  const [w, h] = dims(size);
  list.push({ category: 'mount', name: `${size} Flush Mount`, price: mount(size), details: { mount_color: MOUNT_COLORS } });
  list.push({ category: 'mount', name: `${w + 2}x${h + 2} Mount (1" border)`, price: halfDollar(mount(size) * 1.2), details: { mount_color: MOUNT_COLORS } });
  for (const wood of ['Black Maple', 'White Maple', 'Natural Maple']) {
    list.push({
      category: 'contemporary_frame',
      name: `${wood} 3/4"`,
      frame_profile: ' 3/4',
      price: halfDollar(perimeter(size) * 0.85 + 20),
      details: { frame_mat: frameMats(size), glass: glass(size) },
    });
  }
  for (const wood of ['Walnut', 'Cherry', 'White Oak']) {
    list.push({
      category: 'hardwood_frame',
      name: `${wood} 1.5"`,
      frame_profile: ' 1.5',
      price: halfDollar(perimeter(size) * 1.6 + 35),
      details: { frame_mat: frameMats(size), glass: glass(size), stain: STAINS },
    });
  }
  if (opts.desktop && area(size) <= 80) {
    for (const wood of ['Walnut', 'Maple']) {
      list.push({
        category: 'desktop_frame',
        name: `${wood} Desktop Frame`,
        frame_profile: ' 3/4',
        price: halfDollar(perimeter(size) * 0.9 + 24),
        details: { frame_mat: frameMats(size), glass: glass(size), stain: STAINS },
      });
    }
  }
  return list;
}

function canvasFinishing(size: string) {
  return ['Black', 'Walnut', 'Natural Maple'].map((wood) => ({
    category: 'hardwood_float_canvas_frame' as const,
    name: `${wood} Float Frame`,
    frame_profile: ' 1.5',
    price: halfDollar(perimeter(size) * 1.4 + 30),
    // A float frame holds the canvas itself: no mat and no glazing.
    details: { frame_mat: [{ name: 'No Mat', price: 0, default: true }], glass: [{ name: 'No Acrylic', price: 0, default: true }], stain: STAINS },
  }));
}

function paper(name: string, sizes: Size[], allowsBorder: boolean, finishing: (size: string) => ReturnType<typeof photoFinishing>) {
  return {
    name,
    allows_border: allowsBorder,
    print_sizes: sizes.map(([size, price]) => {
      const [x, y] = dims(size);
      return { name: size, x_aspect: x, y_aspect: y, price, finishing: finishing(size) };
    }),
  };
}

export function defaultCatalogue(): CatalogueFileInput {
  const photo = (size: string) => photoFinishing(size, { mats: true, desktop: true });
  const brushed = (size: string) => photoFinishing(size, { mats: false, desktop: false });
  const circle = (size: string) => photoFinishing(size, { mats: true, desktop: false }).filter((f) => f.category !== 'hardwood_frame');
  return {
    name: 'Default price list',
    // No minimum by default; a lab sets its own (in dollars) in the file it loads.
    order_minimum: 0,
    turnaround: DEFAULT_TURNAROUND,
    // The spec's flat $10 for standard; the air services as pro labs price them.
    shipping_speeds: { standard: 10, two_day: 24, overnight: 39 },
    // Shipping straight to the photographer's client: the lab's handling of a second address.
    drop_ship_fee: 5,
    papers: [
      paper('Lustre', PHOTO_SIZES, true, photo),
      paper('Matte', scaled(PHOTO_SIZES, 1.15), true, photo),
      paper('Metallic', scaled(PHOTO_SIZES, 1.25), true, photo),
      paper('Brushed Canvas', BRUSHED_CANVAS_SIZES, false, brushed),
      paper('Canvas - Gallery Wrap', CANVAS_SIZES, false, canvasFinishing),
      paper('Canvas - White Wrap', CANVAS_SIZES, false, canvasFinishing),
      paper('Canvas - Black Wrap', CANVAS_SIZES, false, canvasFinishing),
      paper('Canvas - Mirror Wrap', scaled(CANVAS_SIZES, 1, 5), false, canvasFinishing),
      paper('Deckled Circle', CIRCLE_SIZES, false, circle),
      paper('Deckled Circle - Border', scaled(CIRCLE_SIZES, 1, 2), false, circle),
    ],
  };
}
