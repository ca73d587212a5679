/**
 * Fills the bench's own database before the server starts (PGlite serves one process at a time:
 * open the data directory, seed, close, then start the server on it). A lab a year into business:
 * the demo admin, a few dozen photographers with very different volumes, and 10,000 orders with
 * every status, dates over the past year and their figures in cents.
 */
import { openDatabase } from '../../server/db/client.ts';
import { labOrders, users } from '../../server/db/schema.ts';
import { DEMO_ADMIN, ensureAdmin } from '../../server/services/admin-bootstrap.ts';
import { hashPassword } from '../../server/services/passwords.ts';
import { seededRandom } from '../../server/cli/seeded-random.ts';
import type { OrderStatus } from '../../src/domain/order-status.ts';

export const BENCH_PASSWORD = 'bench-password';

export interface SeededUser {
  guid: string;
  email: string;
  password: string;
  orders: number;
}

export interface SeedResult {
  admin: { email: string; password: string };
  /** A photographer with a typical history (the median number of orders): the signed-in reads. */
  photographer: SeededUser;
  /** A photographer who signed up and has no orders yet: the cheapest signed-in list. */
  newcomer: SeededUser;
  photographers: number;
  orders: number;
}

// Rows per INSERT: 500 orders × 11 columns stays far below PostgreSQL's 65,535 parameters.
const BATCH = 500;
// How unequal the photographers are: order counts fall off as 1/rank^0.8 (a few busy studios,
// a long tail of occasional ones), as a lab's customer list does.
const VOLUME_SKEW = 0.8;
const DAY_MS = 24 * 60 * 60 * 1000;

const FIRST = ['Ansel', 'Dorothea', 'Annie', 'Sebastião', 'Vivian', 'Gordon', 'Imogen', 'Steve', 'Margaret', 'Henri', 'Diane', 'Robert'];
const LAST = ['Adams', 'Lange', 'Leibovitz', 'Salgado', 'Maier', 'Parks', 'Cunningham', 'McCurry', 'Bourke-White', 'Cartier-Bresson', 'Arbus', 'Capa'];
const STUDIO = ['Studio', 'Photography', 'Portraits', 'Fine Art', 'Weddings', 'Imaging'];
const ORDER_KIND = ['Wedding', 'Family session', 'Portfolio prints', 'Gallery show', 'Senior portraits', 'Newborn', 'Client album', 'Landscape series', 'Headshots', 'Holiday cards'];

/** Splits `total` orders over `n` photographers by rank (largest first), exactly. */
function volumes(total: number, n: number): number[] {
  const weights = Array.from({ length: n }, (_, i) => 1 / (i + 1) ** VOLUME_SKEW);
  const sum = weights.reduce((a, b) => a + b, 0);
  const counts = weights.map((w) => Math.floor((w / sum) * total));
  let rest = total - counts.reduce((a, b) => a + b, 0);
  for (let i = 0; rest > 0; i = (i + 1) % n, rest--) counts[i] = (counts[i] ?? 0) + 1;
  return counts;
}

/** Status by age: old orders have shipped, recent ones are still in the lab; a few were cancelled. */
function statusFor(ageDays: number, r: number): OrderStatus {
  if (r < 0.03) return 'cancelled';
  if (ageDays > 21) return 'shipped';
  if (ageDays > 10) return r < 0.8 ? 'shipped' : 'framing';
  if (ageDays > 3) return (['paid', 'printing', 'framing', 'shipped'] as const)[Math.floor(r * 4)] ?? 'printing';
  return r < 0.5 ? 'open' : 'paid';
}

/**
 * `accounts` (optional): photographer accounts in all, at least `photographers`; those beyond
 * signed up over the year and ordered nothing yet (the long tail a lab's photographers list has).
 */
export async function seedBenchDatabase(dataDir: string, opts: { orders: number; photographers: number; accounts?: number }): Promise<SeedResult> {
  const database = await openDatabase({ dataDir });
  try {
    const { db } = database;
    // The same first admin the server creates on its first start (none exists yet: fresh dir).
    await ensureAdmin(db, { admin: undefined });
    const rand = seededRandom(20_261_121);
    const passwordHash = await hashPassword(BENCH_PASSWORD);
    const now = Date.now();

    const people = Array.from({ length: opts.photographers + 1 }, (_, i) => {
      const first = FIRST[i % FIRST.length] ?? 'Ansel';
      const last = LAST[(i * 7) % LAST.length] ?? 'Adams';
      return {
        email: `${first.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}.${last.toLowerCase().replace(/[^a-z]/g, '')}${i}@example.com`,
        passwordHash,
        firstName: first,
        lastName: last,
        businessName: `${last} ${STUDIO[i % STUDIO.length] ?? 'Studio'}`,
        createdAt: new Date(now - (400 - i) * DAY_MS),
      };
    });
    const inserted = await db.insert(users).values(people).returning({ guid: users.guid, email: users.email });
    // The last one signed up today and has not ordered yet.
    const newcomer = inserted.pop();
    if (!newcomer) throw new Error('seeding: no photographers inserted');
    const quiet = Math.max(0, (opts.accounts ?? 0) - people.length);
    for (let from = 0; from < quiet; from += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, quiet - from) }, (_, k) => {
        const i = people.length + from + k;
        const first = FIRST[i % FIRST.length] ?? 'Ansel';
        const last = LAST[Math.floor(i / FIRST.length) % LAST.length] ?? 'Adams';
        return {
          email: `${first.toLowerCase().normalize('NFD').replace(/[^a-z]/g, '')}.${last.toLowerCase().replace(/[^a-z]/g, '')}${i}@example.com`,
          passwordHash,
          firstName: first,
          lastName: last,
          businessName: `${last} ${STUDIO[i % STUDIO.length] ?? 'Studio'} ${i}`,
          createdAt: new Date(now - rand() * 365 * DAY_MS),
        };
      });
      await db.insert(users).values(batch);
    }
    const counts = volumes(opts.orders, inserted.length);

    let rows: (typeof labOrders.$inferInsert)[] = [];
    const flush = async () => {
      if (rows.length) await db.insert(labOrders).values(rows);
      rows = [];
    };
    for (const [p, photographer] of inserted.entries()) {
      for (let n = 0; n < (counts[p] ?? 0); n++) {
        const ageDays = rand() * 365;
        const created = new Date(now - ageDays * DAY_MS);
        const status = statusFor(ageDays, rand());
        const paid = status === 'open' ? null : new Date(created.getTime() + rand() * 2 * DAY_MS);
        const updated = new Date(Math.min(now, (paid ?? created).getTime() + rand() * 10 * DAY_MS));
        // A few prints to a large framed order: $8 to about $1,500 before shipping.
        const subtotal = 800 + Math.floor(rand() ** 3 * 150_000);
        const discount = rand() < 0.1 ? Math.floor(subtotal * 0.1) : 0;
        const credit = rand() < 0.05 ? Math.min(2_500, subtotal - discount) : 0;
        const shipping = rand() < 0.15 ? 0 : 995 + Math.floor(rand() * 3_000);
        const kind = ORDER_KIND[Math.floor(rand() * ORDER_KIND.length)] ?? 'Prints';
        rows.push({
          userGuid: photographer.guid,
          // Unique per photographer (case-insensitively), as the API requires.
          orderName: `${kind} ${created.toISOString().slice(0, 10)} #${n + 1}`,
          status,
          createdAt: created,
          updatedAt: updated,
          paidAt: paid,
          subtotalCents: subtotal,
          discountCents: discount,
          creditCents: credit,
          shippingCents: shipping,
          totalCents: subtotal - discount - credit + shipping,
        });
        if (rows.length >= BATCH) await flush();
      }
    }
    await flush();

    // The photographer with the median number of orders stands for the typical signed-in user.
    const byVolume = inserted.map((u, i) => ({ ...u, orders: counts[i] ?? 0 })).sort((a, b) => a.orders - b.orders);
    const median = byVolume[Math.floor(byVolume.length / 2)];
    if (!median) throw new Error('seeding: no photographers');
    return {
      admin: { ...DEMO_ADMIN },
      photographer: { guid: median.guid, email: median.email, password: BENCH_PASSWORD, orders: median.orders },
      newcomer: { guid: newcomer.guid, email: newcomer.email, password: BENCH_PASSWORD, orders: 0 },
      photographers: inserted.length + quiet,
      orders: opts.orders,
    };
  } finally {
    await database.close();
  }
}
