/**
 * What order-cancel.spec.ts needs and no call can make: a photographer whose order was paid two
 * hours ago, long past the cancellation window (the server's clock cannot be moved in an e2e run).
 * Written before the lab opens its embedded database (PGlite is one process's), as
 * checkout-seed.ts does; left alone when it exists already (a reused data directory).
 */
import { eq } from 'drizzle-orm';
import { loadConfig } from '../../server/config.ts';
import { openDatabase } from '../../server/db/client.ts';
import { labOrders, users } from '../../server/db/schema.ts';
import { hashPassword } from '../../server/services/passwords.ts';

export const LATE_PAYER = { email: 'late-payer@studio.example', password: 'paid-two-hours-ago', orderName: 'Paid two hours ago' } as const;

// Far past any window the e2e server is configured with (30 minutes by default).
const PAID_HOURS_AGO = 2;

export async function seedLatePaidOrder(): Promise<void> {
  const database = await openDatabase(loadConfig());
  try {
    const db = database.db;
    if ((await db.select({ guid: users.guid }).from(users).where(eq(users.email, LATE_PAYER.email))).length) return;
    const [user] = await db
      .insert(users)
      .values({ email: LATE_PAYER.email, firstName: 'Imogen', lastName: 'Cunningham', businessName: 'Late Studio', passwordHash: await hashPassword(LATE_PAYER.password) })
      .returning();
    if (!user) throw new Error('the late payer was not made');
    const paidAt = new Date(Date.now() - PAID_HOURS_AGO * 60 * 60 * 1000);
    await db.insert(labOrders).values({
      userGuid: user.guid,
      orderName: LATE_PAYER.orderName,
      status: 'paid',
      paidAt,
      updatedAt: paidAt,
      subtotalCents: 2400,
      totalCents: 2400,
      localPickup: true,
      paymentConfirmation: 'ch_sandbox_seeded_long_ago',
    });
  } finally {
    await database.close();
  }
}
