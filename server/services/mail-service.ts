import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { MailTransport, OutgoingMail } from '../adapters/mail/mail-transport.ts';
import type { Db, Tx } from '../db/client.ts';
import { mailOutbox, users } from '../db/schema.ts';

// A mail that keeps failing is given up after this many tries (about a day with the sweep below).
export const MAX_MAIL_ATTEMPTS = 24;

export interface Mailer {
  /** Queues a mail in the outbox and tries to send it at once; never throws for a transport failure. */
  send(mail: OutgoingMail): Promise<string>;
  /**
   * Queues a mail inside the caller's transaction (it exists only if that transaction commits);
   * hand its id to deliver() after the commit. A mail never delivered is sent by sendPending.
   * Null for a status mail its photographer turned off: nothing is queued.
   */
  queue(tx: Tx, mail: OutgoingMail): Promise<string | null>;
  /** Tries to send a queued mail now; never throws for a transport failure. */
  deliver(id: string): Promise<boolean>;
  /** Sends what is still pending (called periodically). */
  sendPending(): Promise<number>;
}

export function createMailer(db: Db, transport: MailTransport, from: string, log: (msg: string, err?: unknown) => void = () => {}): Mailer {
  async function attempt(row: typeof mailOutbox.$inferSelect): Promise<boolean> {
    try {
      await transport.deliver({ from, to: row.toAddress, subject: row.subject, text: row.bodyText });
      await db.update(mailOutbox).set({ status: 'sent', sentAt: new Date(), attempts: row.attempts + 1, lastError: null }).where(eq(mailOutbox.id, row.id));
      return true;
    } catch (err) {
      const attempts = row.attempts + 1;
      await db
        .update(mailOutbox)
        .set({ status: attempts >= MAX_MAIL_ATTEMPTS ? 'failed' : 'pending', attempts, lastError: err instanceof Error ? err.message : String(err) })
        .where(eq(mailOutbox.id, row.id));
      log(`mail to ${row.toAddress} not sent (try ${attempts})`, err);
      return false;
    }
  }

  return {
    async send(mail) {
      const [row] = await db.insert(mailOutbox).values({ toAddress: mail.to, subject: mail.subject, bodyText: mail.text }).returning();
      if (!row) throw new Error('mail not queued');
      if ((await attempt(row)) && mail.secret) {
        await db.update(mailOutbox).set({ bodyText: row.bodyText.replaceAll(mail.secret, '******') }).where(eq(mailOutbox.id, row.id));
      }
      return row.id;
    },
    async queue(tx, mail) {
      if (mail.statusStep) {
        const [owner] = await tx.select({ off: users.statusMailsOff }).from(users).where(eq(users.guid, mail.statusStep.userGuid));
        if (owner?.off.includes(mail.statusStep.step)) return null;
      }
      const [row] = await tx.insert(mailOutbox).values({ toAddress: mail.to, subject: mail.subject, bodyText: mail.text }).returning({ id: mailOutbox.id });
      if (!row) throw new Error('mail not queued');
      return row.id;
    },
    async deliver(id) {
      const [row] = await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, 'pending')));
      return row ? attempt(row) : false;
    },
    async sendPending() {
      const rows = await db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.status, 'pending'), lt(mailOutbox.attempts, MAX_MAIL_ATTEMPTS), lt(mailOutbox.createdAt, sql`now() - interval '30 seconds'`)))
        .orderBy(asc(mailOutbox.createdAt))
        .limit(100);
      let sent = 0;
      for (const row of rows) if (await attempt(row)) sent += 1;
      return sent;
    },
  };
}
