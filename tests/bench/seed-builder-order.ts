/**
 * The builder bench's order: one photographer with an open order of 1,000 photos, written straight
 * into the bench's database and object store before the server starts (the way seed-orders.ts
 * seeds orders). Uploading 1,000 photos through the API would take minutes on two shared cores and
 * measures the upload, which upload.ts already does; here only the builder is measured. Each photo
 * has its thumbnail and preview in the store, so the builder shows real images.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { openDatabase } from '../../server/db/client.ts';
import { labOrders, photographs, users } from '../../server/db/schema.ts';
import { storageRoot } from '../../server/adapters/storage/local-storage.ts';
import { hashPassword } from '../../server/services/passwords.ts';
import { BENCH_PASSWORD } from './seed-orders.ts';

export interface BuilderSeed {
  email: string;
  password: string;
  orderGuid: string;
  photos: number;
}

// Distinct thumbnails written (reused round-robin): enough that the strip is not one colour,
// few enough that encoding them takes well under a second.
const COLOURS = 24;
// Rows per INSERT: 250 photos × 12 columns stays far below PostgreSQL's 65,535 parameters.
const BATCH = 250;

const jpeg = (width: number, height: number, i: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: (i * 70 + 40) % 256, g: (i * 40 + 90) % 256, b: (i * 110 + 20) % 256 } } })
    .jpeg({ quality: 70 })
    .toBuffer();

export interface SeededOrder {
  name: string;
  guid: string;
  photos: number;
}

/**
 * One photographer (`email`) with open orders of the given sizes, their photos already uploaded
 * and derived (thumbnail and preview in the store): the orders the deep screens' bench opens.
 */
export async function seedPhotographerOrders(dataDir: string, email: string, orders: { name: string; photos: number }[]): Promise<SeededOrder[]> {
  const root = storageRoot(dataDir);
  const write = (key: string, bytes: Buffer) => {
    const path = join(root, key);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, bytes);
  };
  // The sizes of the lab's derivatives: a strip thumbnail and a cropper preview.
  const thumbs = await Promise.all(Array.from({ length: COLOURS }, (_, i) => jpeg(240, 160, i)));
  const previews = await Promise.all(Array.from({ length: COLOURS }, (_, i) => jpeg(1200, 800, i)));
  thumbs.forEach((b, i) => write(`bench-builder/thumb-${i}.jpg`, b));
  previews.forEach((b, i) => write(`bench-builder/preview-${i}.jpg`, b));

  const database = await openDatabase({ dataDir });
  try {
    const { db } = database;
    const [user] = await db
      .insert(users)
      .values({ email, passwordHash: await hashPassword(BENCH_PASSWORD), firstName: 'Imogen', lastName: 'Cunningham', businessName: 'Cunningham Weddings' })
      .returning({ guid: users.guid });
    if (!user) throw new Error('seeding the builder order: no photographer inserted');
    const seeded: SeededOrder[] = [];
    for (const wanted of orders) {
      const [order] = await db.insert(labOrders).values({ userGuid: user.guid, orderName: wanted.name, status: 'open' }).returning({ id: labOrders.id, guid: labOrders.guid });
      if (!order) throw new Error('seeding the builder order: no order inserted');
      let rows: (typeof photographs.$inferInsert)[] = [];
      for (let i = 0; i < wanted.photos; i++) {
        const n = String(i + 1).padStart(4, '0');
        rows.push({
          labOrderId: order.id,
          fileName: `IMG_${n}.jpg`,
          key: `bench-builder/originals/IMG_${n}.jpg`,
          size: 8_000_000,
          checksum: i.toString(16).padStart(64, '0'),
          contentType: 'image/jpeg',
          // A 24-megapixel camera: every photo is sharp enough for 8x10.
          width: 6000,
          height: 4000,
          previewKey: `bench-builder/preview-${i % COLOURS}.jpg`,
          thumbnailKey: `bench-builder/thumb-${i % COLOURS}.jpg`,
        });
        if (rows.length >= BATCH) {
          await db.insert(photographs).values(rows);
          rows = [];
        }
      }
      if (rows.length) await db.insert(photographs).values(rows);
      seeded.push({ name: wanted.name, guid: order.guid, photos: wanted.photos });
    }
    return seeded;
  } finally {
    await database.close();
  }
}

export async function seedBuilderOrder(dataDir: string, photos: number): Promise<BuilderSeed> {
  const email = 'builder.bench@example.com';
  const [order] = await seedPhotographerOrders(dataDir, email, [{ name: 'Wedding 1,000 photos', photos }]);
  if (!order) throw new Error('seeding the builder order: no order inserted');
  return { email, password: BENCH_PASSWORD, orderGuid: order.guid, photos };
}
