/**
 * The lab of the scale part on PostgreSQL: 10,000 orders seeded by the product's own
 * `npm run seed:orders` (photos, line items, every status), the open orders the load writes to,
 * and one open order of 1,000 stored photos for the zip.
 */
import { spawn } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { storageRoot } from '../../server/adapters/storage/local-storage.ts';

const ROOT = join(import.meta.dirname, '..', '..');
// The password server/cli/seed-orders.ts gives every photographer it makes (its SEED_PASSWORD;
// that module runs its command when imported, so the value is repeated here).
export const SEED_PASSWORD = 'seeded-password';
// Distinct originals written for the zip order; the others are hard links to them, so 1,000
// photos cost this many files' bytes on disk while the zip still reads 1,000 files.
const ZIP_DISTINCT = 20;

export interface LoadSlot {
  email: string;
  /** An open order of this photographer with a photo and a line item: the slot's writes go there. */
  orderGuid: string;
  photoGuid: string;
  lineItemGuid: string;
  /** One of their older (closed) orders, for a detail read. */
  pastOrderGuid: string;
}

export interface ScaleSeed {
  orders: number;
  photographers: number;
  slots: LoadSlot[];
  /** A print size of the active catalogue (what a new line item is priced with). */
  printSizeGuid: string;
}

/** Runs the product's seed command against the scratch database and the shared object store. */
export async function seedOrdersCli(databaseUrl: string, dataDir: string, orders: number, photographers: number): Promise<void> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/cli/seed-orders.ts', String(orders), '--photographers', String(photographers)], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DATABASE_URL: databaseUrl, DATA_DIR: dataDir, NODE_NO_WARNINGS: '1' },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr.on('data', (d: Buffer) => (err = (err + d.toString()).slice(-4000)));
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  if (code !== 0) throw new Error(`npm run seed:orders failed (exit ${code}): ${err}`);
}

/**
 * One slot per photographer's open order with a photo and a line item, photographers taken in
 * turn (so as many photographers as there are slots have a session), at most `wanted` slots.
 */
export async function readSlots(databaseUrl: string, wanted: number): Promise<ScaleSeed> {
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const open = await c.query<{ email: string; order_guid: string; photo_guid: string; line_item_guid: string; past_guid: string | null; rank: number }>(`
      SELECT u.email, o.guid AS order_guid, p.guid AS photo_guid, li.guid AS line_item_guid,
             (SELECT x.guid FROM lab_orders x WHERE x.user_guid = u.guid AND x.status <> 'open' ORDER BY x.id LIMIT 1) AS past_guid,
             row_number() OVER (PARTITION BY u.guid ORDER BY o.id)::int AS rank
      FROM lab_orders o
      JOIN users u ON u.guid = o.user_guid
      JOIN LATERAL (SELECT guid, id FROM photographs WHERE lab_order_id = o.id ORDER BY id LIMIT 1) p ON true
      JOIN LATERAL (SELECT guid FROM line_items WHERE lab_order_id = o.id AND photograph_id = p.id ORDER BY id LIMIT 1) li ON true
      WHERE o.status = 'open' AND NOT u.is_admin
      ORDER BY rank, u.email`);
    const slots: LoadSlot[] = open.rows.slice(0, wanted).map((r) => ({
      email: r.email,
      orderGuid: r.order_guid,
      photoGuid: r.photo_guid,
      lineItemGuid: r.line_item_guid,
      pastOrderGuid: r.past_guid ?? r.order_guid,
    }));
    if (slots.length < wanted) throw new Error(`the seed has ${slots.length} open orders with photos, the load needs ${wanted}`);
    const size = await c.query<{ guid: string }>(`
      SELECT s.guid FROM print_sizes s JOIN papers p ON p.guid = s.paper_guid JOIN catalogues c ON c.id = p.catalogue_id AND c.active
      ORDER BY s.price_cents LIMIT 1`);
    const counts = await c.query<{ orders: number; photographers: number }>(
      `SELECT (SELECT count(*) FROM lab_orders)::int AS orders, (SELECT count(*) FROM users WHERE NOT is_admin)::int AS photographers`,
    );
    const printSizeGuid = size.rows[0]?.guid;
    if (!printSizeGuid) throw new Error('the seeded catalogue has no print size');
    return { orders: counts.rows[0]?.orders ?? 0, photographers: counts.rows[0]?.photographers ?? 0, slots, printSizeGuid };
  } finally {
    await c.end();
  }
}

/**
 * An open order of `photos` stored originals of `bytes` each (random bytes: the zip stores them
 * as they are, like JPEGs), in the shared local object store, for the zip's memory figure.
 */
export async function seedZipOrder(databaseUrl: string, dataDir: string, email: string, photos: number, bytes: number): Promise<{ orderGuid: string; totalBytes: number }> {
  const root = storageRoot(dataDir);
  const originals = Array.from({ length: ZIP_DISTINCT }, () => randomBytes(bytes));
  const digests = originals.map((b) => createHash('sha256').update(b).digest('hex'));
  const first = (i: number) => `bench-zip/original-${i}.jpg`;
  originals.forEach((b, i) => {
    const path = join(root, first(i));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, b);
  });
  const c = new pg.Client({ connectionString: databaseUrl });
  await c.connect();
  try {
    const order = await c.query<{ id: string; guid: string }>(
      `INSERT INTO lab_orders (user_guid, order_name, status) SELECT guid, 'Wedding, 1,000 photos to zip', 'open' FROM users WHERE email = $1 RETURNING id, guid`,
      [email],
    );
    const row = order.rows[0];
    if (!row) throw new Error(`no photographer ${email} for the zip order`);
    const values: unknown[] = [];
    const tuples: string[] = [];
    for (let i = 0; i < photos; i++) {
      const key = `bench-zip/${row.guid}/IMG_${String(i + 1).padStart(4, '0')}.jpg`;
      const path = join(root, key);
      mkdirSync(dirname(path), { recursive: true });
      linkSync(join(root, first(i % ZIP_DISTINCT)), path);
      const n = values.length;
      // A thumbnail key, so housekeeping does not ask derivatives of bytes that are no image.
      tuples.push(`($${n + 1}, $${n + 2}, $${n + 3}, $${n + 4}, $${n + 5}, 'image/jpeg', 6000, 4000, $${n + 3})`);
      // Distinct per photo (an order holds each checksum once); the zip does not read it.
      values.push(row.id, `IMG_${String(i + 1).padStart(4, '0')}.jpg`, key, bytes, createHash('sha256').update(`${digests[i % ZIP_DISTINCT]}:${i}`).digest('hex'));
    }
    await c.query(`INSERT INTO photographs (lab_order_id, file_name, key, size, checksum, content_type, width, height, thumbnail_key) VALUES ${tuples.join(', ')}`, values);
    return { orderGuid: row.guid, totalBytes: photos * bytes };
  } finally {
    await c.end();
  }
}
