import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { and, eq, isNotNull } from 'drizzle-orm';
import { webhookKeyBytes, type Config } from '../config.ts';
import type { Db } from '../db/client.ts';
import { webhookEndpoints } from '../db/schema.ts';

/**
 * Partner webhooks' signing secrets at rest (issue 34): sealed with AES-256-GCM under a key that
 * is not in the database (WEBHOOK_SECRET_KEY, or a key file in DATA_DIR for the embedded start),
 * so a dump of the database, a backup or a row in a log does not let anyone sign events as the lab.
 */

// GCM's standard nonce: 12 random bytes, never reused under one key at these volumes.
const IV_BYTES = 12;
// The key's fingerprint in each sealed text: a text sealed under another key is named as such
// instead of failing as "corrupt".
const KEY_ID_CHARS = 8;
const FORMAT = 'v1';

/** The key file of the embedded start (no WEBHOOK_SECRET_KEY): made once, kept with the data. */
export const webhookKeyFile = (dataDir: string) => join(dataDir, 'webhook-secret.key');

export interface SecretBox {
  /** `context` binds the sealed text to its place (a webhook's guid): moved elsewhere it does not open. */
  seal(plain: string, context: string): string;
  open(sealed: string, context: string): string;
}

export function secretBox(key: Buffer): SecretBox {
  const keyId = createHash('sha256').update(key).digest('hex').slice(0, KEY_ID_CHARS);
  return {
    seal(plain, context) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(context));
      const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [FORMAT, keyId, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), sealed.toString('base64url')].join('.');
    },
    open(text, context) {
      const [format, id, iv, tag, sealed] = text.split('.');
      if (format !== FORMAT || !iv || !tag || sealed === undefined) throw new Error('A sealed webhook secret is not in the sealed form.');
      if (id !== keyId) throw new Error(`A webhook secret was sealed with another WEBHOOK_SECRET_KEY (key ${id ?? '?'}, this process has ${keyId}).`);
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url')).setAAD(Buffer.from(context));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(sealed, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** Where the key came from, for the start's line. */
export type WebhookKeySource = 'WEBHOOK_SECRET_KEY' | 'key file' | 'database';

/**
 * The configured key; or, embedded, the key file in DATA_DIR, made on the first start (written
 * with 'wx' so that two processes starting on one DATA_DIR keep the one written first); or, on
 * PostgreSQL outside production (a developer's or a test's processes, which keep nothing on
 * disk), a key derived from the lab's own secret in the database: shared by every process, but
 * beside the data it seals, which is why production refuses to start without WEBHOOK_SECRET_KEY.
 */
export function loadWebhookKey(config: Pick<Config, 'webhookSecretKey' | 'dataDir' | 'databaseUrl'>, appSecret: string): { key: Buffer; source: WebhookKeySource } {
  if (config.webhookSecretKey) return { key: config.webhookSecretKey, source: 'WEBHOOK_SECRET_KEY' };
  if (config.databaseUrl) return { key: Buffer.from(hkdfSync('sha256', appSecret, '', 'webhook secrets', 32)), source: 'database' };
  const file = webhookKeyFile(config.dataDir);
  try {
    mkdirSync(config.dataDir, { recursive: true });
    writeFileSync(file, `${randomBytes(32).toString('base64')}\n`, { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw new Error(`The webhook key file ${file} could not be made (set WEBHOOK_SECRET_KEY instead): ${(err as Error).message}`, { cause: err });
  }
  const key = webhookKeyBytes(readFileSync(file, 'utf8').trim());
  if (!key) throw new Error(`The webhook key file ${file} does not hold a 32-byte key (base64); remove it to make a new one only if no webhook was registered with it.`);
  return { key, source: 'key file' };
}

/** What a webhook's sealed secret is bound to: its own row. */
const contextOf = (guid: string) => `webhook_endpoints:${guid}`;

export const sealWebhookSecret = (box: SecretBox, guid: string, secret: string) => box.seal(secret, contextOf(guid));

/**
 * Seals the secrets of rows registered before sealing, on start. On start rather than at first
 * use: a webhook whose partner has no order moving may go months without a delivery, and its
 * secret would sit readable all that time. Each row is sealed by itself (`secret` still set in
 * the WHERE), so processes starting together on one database agree whichever writes last.
 */
export async function sealPlainWebhookSecrets(db: Db, box: SecretBox): Promise<number> {
  const plain = await db.select({ guid: webhookEndpoints.guid, secret: webhookEndpoints.secret }).from(webhookEndpoints).where(isNotNull(webhookEndpoints.secret));
  for (const row of plain) await sealRow(db, box, row.guid, row.secret ?? '');
  return plain.length;
}

async function sealRow(db: Db, box: SecretBox, guid: string, secret: string): Promise<void> {
  await db
    .update(webhookEndpoints)
    .set({ sealedSecret: sealWebhookSecret(box, guid, secret), secret: null })
    .where(and(eq(webhookEndpoints.guid, guid), isNotNull(webhookEndpoints.secret)));
}

/**
 * The secret a delivery signs with. A row still in plain text here was written by a process of
 * the release before (a rolling deploy, after this process's start): it is sealed now.
 */
export async function webhookSigningSecret(db: Db, box: SecretBox, row: typeof webhookEndpoints.$inferSelect): Promise<string> {
  if (row.sealedSecret) return box.open(row.sealedSecret, contextOf(row.guid));
  if (!row.secret) throw new Error(`webhook ${row.guid} has no secret`);
  await sealRow(db, box, row.guid, row.secret);
  return row.secret;
}
