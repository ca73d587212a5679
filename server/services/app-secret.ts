import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { appSettings } from '../db/schema.ts';

const KEY = 'app_secret';

/**
 * The server's own signing secret (identity hashes without an Intercom secret, signed storage
 * URLs). Made once and kept in the database, so every API process and every restart agree.
 */
export async function loadAppSecret(db: Db): Promise<string> {
  await db
    .insert(appSettings)
    .values({ key: KEY, value: randomBytes(32).toString('base64url') })
    .onConflictDoNothing();
  const [row] = await db.select().from(appSettings).where(eq(appSettings.key, KEY));
  if (!row) throw new Error('app secret could not be stored');
  return row.value;
}
