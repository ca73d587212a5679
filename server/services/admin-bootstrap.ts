import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';
import type { Config } from '../config.ts';
import { normaliseEmail } from './auth-service.ts';
import { hashPassword } from './passwords.ts';

export const DEMO_ADMIN = { email: 'admin@example.com', password: 'admin-password' } as const;

/**
 * First start: creates the admin named by ADMIN_EMAIL/ADMIN_PASSWORD, or, when neither is set
 * and the lab has no admin yet, the demo admin. An existing account is never overwritten.
 * Returns what was created, so main.ts can print it.
 */
export async function ensureAdmin(db: Db, config: Pick<Config, 'admin'>): Promise<{ email: string; password: string; demo: boolean } | null> {
  const wanted = config.admin ?? DEMO_ADMIN;
  const email = normaliseEmail(wanted.email);
  if (!config.admin) {
    const [anyAdmin] = await db.select({ guid: users.guid }).from(users).where(eq(users.isAdmin, true)).limit(1);
    if (anyAdmin) return null;
  }
  const inserted = await db
    .insert(users)
    .values({
      email,
      passwordHash: await hashPassword(wanted.password),
      firstName: 'Lab',
      lastName: 'Admin',
      businessName: 'Print Lab',
      isAdmin: true,
    })
    .onConflictDoNothing()
    .returning({ guid: users.guid });
  return inserted.length ? { email, password: wanted.password, demo: !config.admin } : null;
}
