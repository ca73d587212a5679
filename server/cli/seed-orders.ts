/**
 * Realistic lab orders for demos and benchmarks:
 *   npm run seed:orders -- 10000 [--photographers 40]
 * Photographers with very different volumes; orders over the past year in every status, with
 * photos (a small pool of stored JPEGs the orders share, as reorders do), line items on the active
 * catalogue's papers and finishing (so the admin's MATTING / MOUNTING / FRAMING / CANVAS / PRINTS
 * filters have something to find), notes, admin notes, urgent, API orders, test prints, boutique
 * packaging and tracking links. The photographers sign in with the password printed at the end.
 * With the embedded database, stop the server first (PGlite is single-process).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { and, eq, sql } from 'drizzle-orm';
import { SHIPPING_CENTS } from '../../src/domain/pricing.ts';
import sharp from 'sharp';
import { ensureCatalogue } from '../catalogue/load-catalogue.ts';
import { loadConfig } from '../config.ts';
import { storageFor } from '../create-deps.ts';
import { runCli } from './run-cli.ts';
import { openDatabase } from '../db/client.ts';
import { catalogues, finishingDetails, finishingServices, labOrders, lineItems, papers, photographs, printSizes, users } from '../db/schema.ts';
import { loadAppSecret } from '../services/app-secret.ts';
import { hashPassword } from '../services/passwords.ts';
import { seededRandom } from './seeded-random.ts';
import type { OrderStatus } from '../../src/domain/order-status.ts';

export const SEED_PASSWORD = 'seeded-password';
// Distinct photos stored once and shared by the orders (a lab's demo needs pictures, not gigabytes).
const PHOTO_POOL = 24;
// Orders inserted per statement: well under PostgreSQL's 65,535 parameters.
const BATCH = 250;
const DAY_MS = 24 * 60 * 60 * 1000;
const KINDS = ['Wedding', 'Family session', 'Portfolio prints', 'Gallery show', 'Senior portraits', 'Newborn', 'Client album', 'Landscapes', 'Headshots', 'Holiday cards'];
const NAMES = ['Ansel Adams', 'Dorothea Lange', 'Annie Leibovitz', 'Vivian Maier', 'Gordon Parks', 'Imogen Cunningham', 'Margaret Bourke-White', 'Diane Arbus', 'Robert Capa', 'Henri Cartier'];

function statusFor(ageDays: number, r: number): OrderStatus {
  if (r < 0.03) return 'cancelled';
  if (ageDays > 21) return 'shipped';
  if (ageDays > 7) return r < 0.7 ? 'shipped' : 'framing';
  return (['open', 'open', 'paid', 'printing'] as const)[Math.floor(r * 4)] ?? 'paid';
}

async function main(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({ args, options: { photographers: { type: 'string', default: '40' } }, allowPositionals: true, strict: true });
  const total = Number(positionals[0] ?? '1000');
  const people = Number(values.photographers);
  if (!Number.isInteger(total) || total < 1 || total > 1_000_000 || !Number.isInteger(people) || people < 1 || people > 10_000) {
    console.error('Usage: npm run seed:orders -- <orders, 1 to 1000000> [--photographers N]');
    return 2;
  }
  const config = loadConfig();
  const database = await openDatabase(config);
  try {
    const db = database.db;
    await ensureCatalogue(db);
    const secret = await loadAppSecret(db);
    const storage = await storageFor(config, secret);
    const rand = seededRandom(total * 7919 + people);
    const run = randomBytes(3).toString('hex');

    const pool: { key: string; size: number; checksum: string; fileName: string }[] = [];
    for (let i = 0; i < PHOTO_POOL; i++) {
      const bytes = await sharp({ create: { width: 1200, height: 800, channels: 3, background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 } } }).jpeg().toBuffer();
      const key = `photos/seed-${run}/${i}.jpg`;
      await storage.put(key, bytes, 'image/jpeg');
      pool.push({ key, size: bytes.length, checksum: createHash('sha256').update(bytes).digest('hex'), fileName: `IMG_${4000 + i}.jpg` });
    }
    const sizes = await db
      .select({ guid: printSizes.guid, priceCents: printSizes.priceCents })
      .from(printSizes)
      .innerJoin(papers, eq(papers.guid, printSizes.paperGuid))
      .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)));
    const services = await db.select().from(finishingServices);
    const defaults = await db.select().from(finishingDetails).where(eq(finishingDetails.isDefault, true));

    const passwordHash = await hashPassword(SEED_PASSWORD);
    const photographers = await db
      .insert(users)
      .values(
        Array.from({ length: people }, (_, i) => {
          const [first = 'Ansel', last = 'Adams'] = (NAMES[i % NAMES.length] ?? 'Ansel Adams').split(' ');
          return { email: `${first.toLowerCase()}.${i}.${run}@example.com`, passwordHash, firstName: first, lastName: last, businessName: `${last} Studio ${i + 1}`, isApiVendor: i === people - 1 };
        }),
      )
      .returning({ guid: users.guid, email: users.email });
    // The quietest account is an API vendor: its orders are the API orders (API ORDER, /api-invoices).
    const vendor = photographers.at(-1);

    const now = Date.now();
    let made = 0;
    while (made < total) {
      const batch = Math.min(BATCH, total - made);
      const orders = Array.from({ length: batch }, (_, n) => {
        // A few busy studios, a long tail of occasional ones.
        const who = photographers[Math.floor(rand() ** 2 * photographers.length)] ?? photographers[0];
        // More recent orders than old ones: a lab's open and in-progress work is recent.
        const ageDays = rand() ** 2 * 365;
        const created = new Date(now - ageDays * DAY_MS);
        const status = statusFor(ageDays, rand());
        const paid = status === 'open' ? null : new Date(created.getTime() + rand() * DAY_MS);
        const shipped = status === 'shipped';
        return {
          userGuid: who?.guid ?? '',
          orderName: `${KINDS[Math.floor(rand() * KINDS.length)] ?? 'Prints'} ${created.toISOString().slice(0, 10)} #${made + n + 1}`,
          status,
          createdAt: created,
          updatedAt: new Date(Math.min(now, (paid ?? created).getTime() + rand() * 5 * DAY_MS)),
          paidAt: paid,
          shippedAt: shipped ? new Date(Math.min(now, (paid ?? created).getTime() + 5 * DAY_MS)) : null,
          urgent: !shipped && status !== 'cancelled' && rand() < 0.1,
          notes: rand() < 0.2 ? 'Please match the proofs I sent last time.' : null,
          internalNotes: rand() < 0.05 ? 'Check the crop on the second print.' : null,
          trackingUrl: shipped ? `https://tools.usps.com/go/TrackConfirmAction?tLabels=9400${Math.floor(rand() * 1e12)}` : null,
          apiOrder: who?.guid === vendor?.guid,
          testPrint: rand() < 0.03,
          boutiqueShipping: rand() < 0.1,
          localPickup: rand() < 0.08,
          colorCorrection: rand() < 0.15 ? 'as_is' : 'lab',
        };
      });
      const inserted = await db.insert(labOrders).values(orders).returning({ id: labOrders.id });
      const photoRows = inserted.flatMap((o) => {
        const count = 1 + Math.floor(rand() * 3);
        const start = Math.floor(rand() * PHOTO_POOL);
        return Array.from({ length: count }, (_, k) => {
          const p = pool[(start + k) % PHOTO_POOL] ?? pool[0];
          return { labOrderId: o.id, fileName: p?.fileName ?? 'IMG.jpg', key: p?.key ?? '', size: p?.size ?? 0, checksum: p?.checksum ?? '', contentType: 'image/jpeg', width: 1200, height: 800 };
        });
      });
      const photos = await db.insert(photographs).values(photoRows).returning({ id: photographs.id, orderId: photographs.labOrderId });
      const items = photos.map((photo) => {
        const size = sizes[Math.floor(rand() * sizes.length)] ?? sizes[0];
        const offered = services.filter((s) => s.printSizeGuid === size?.guid);
        const service = rand() < 0.45 ? offered[Math.floor(rand() * offered.length)] : undefined;
        const details = service ? defaults.filter((d) => d.finishingServiceGuid === service.guid) : [];
        return {
          guid: randomUUID(),
          labOrderId: photo.orderId,
          photographId: photo.id,
          printSizeGuid: size?.guid ?? '',
          finishingServiceGuid: service?.guid ?? null,
          finishingDetailGuids: details.map((d) => d.guid),
          cropX: 0,
          cropY: 0,
          cropW: 100,
          cropH: 100,
          quantity: 1 + Math.floor(rand() ** 3 * 10),
          printCents: size?.priceCents ?? 0,
          finishingCents: (service?.priceCents ?? 0) + details.reduce((sum, d) => sum + d.priceCents, 0),
        };
      });
      await db.insert(lineItems).values(items);
      made += batch;
      process.stdout.write(`\r${made} of ${total} orders`);
    }
    // The figures of the seeded orders from their line items: subtotal and the lab's flat shipping.
    await db.execute(sql`
      update lab_orders o set subtotal_cents = s.sub, shipping_cents = case when o.local_pickup then 0 else ${SHIPPING_CENTS} end,
        total_cents = s.sub + case when o.local_pickup then 0 else ${SHIPPING_CENTS} end
      from (select lab_order_id, sum((print_cents + finishing_cents) * quantity)::integer sub from line_items group by lab_order_id) s
      where s.lab_order_id = o.id and o.total_cents = 0`);
    console.log(`\nSeeded ${total} orders for ${people} photographers (password: ${SEED_PASSWORD}; ${vendor?.email} is an API vendor).`);
    return 0;
  } finally {
    await database.close();
  }
}

runCli(main);
