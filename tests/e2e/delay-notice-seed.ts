/**
 * What delay-notices.spec.ts needs and no call can make: a paid order whose promised ship date
 * has passed. The e2e server's clock cannot be moved forward, so the order is put back in time
 * instead: paid twelve days ago with the ship date the lab promised then, not shipped. The lab's
 * own schedule (job-workers.ts) finds it. Written before the lab opens its embedded database
 * (PGlite is one process's), as order-actions-seed.ts does; left alone when it exists already.
 */
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { labOrders, users } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/services/passwords.ts';
import { labDateOf, shipByDate } from '../../src/domain/ship-dates.ts';
import { DEFAULT_TURNAROUND } from '../../src/domain/turnaround.ts';

export const LATE_ORDER = { email: 'waiting@studio.example', password: 'still-waiting-for-prints', orderName: 'Promised last week' } as const;

// Long enough that the promised day (two business days after payment) is well past.
const PAID_DAYS_AGO = 12;

export async function seedLateOrder(): Promise<void> {
  const database = await openDatabase(loadConfig());
  try {
    const db = database.db;
    if ((await db.select({ guid: users.guid }).from(users).where(eq(users.email, LATE_ORDER.email))).length) return;
    const [user] = await db
      .insert(users)
      .values({ email: LATE_ORDER.email, firstName: 'Dorothea', lastName: 'Lange', businessName: 'Waiting Studio', passwordHash: await hashPassword(LATE_ORDER.password) })
      .returning();
    if (!user) throw new Error('the waiting photographer was not made');
    const paidAt = new Date(Date.now() - PAID_DAYS_AGO * 24 * 60 * 60 * 1000);
    await db.insert(labOrders).values({
      userGuid: user.guid,
      orderName: LATE_ORDER.orderName,
      status: 'printing',
      paidAt,
      updatedAt: paidAt,
      subtotalCents: 3100,
      totalCents: 3100,
      hasPrints: true,
      paymentConfirmation: 'ch_sandbox_seeded_late',
      promisedShipDate: shipByDate(labDateOf(paidAt), DEFAULT_TURNAROUND.prints),
      shippingAddress: { guid: '00000000-0000-4000-8000-000000000034', recipient: 'Dorothea Lange', street: '1 Migrant Way', street2: null, city: 'Nipomo', state: 'CA', zip: '93444', phone: null },
    });
  } finally {
    await database.close();
  }
}
