import { createServer } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { smtpTransport } from '../../server/adapters/mail/mail-transport.ts';
import { mailOutbox } from '../../server/db/schema.ts';
import { createMailer } from '../../server/services/mail-service.ts';
import { createTestApp, type TestApp } from './helper.ts';

const received: { to: string[]; raw: string }[] = [];
let smtp: SMTPServer;
let port: number;
let t: TestApp;

beforeAll(async () => {
  port = await new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as { port: number }).port;
      s.close(() => resolve(p));
    });
  });
  // A real SMTP server on loopback (its built-in certificate has expired, so no STARTTLS).
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (d: Buffer) => (raw += d.toString()));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  t = await createTestApp();
});

afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('the SMTP transport', () => {
  it('delivers through a real SMTP server and marks the outbox row sent', async () => {
    const mailer = createMailer(t.db, smtpTransport(`smtp://127.0.0.1:${port}?tls=off`), 'Print Lab <orders@lab.example>');
    const id = await mailer.send({ to: 'ann@studio.example', subject: 'Your order has shipped', text: 'Tracking: 1Z999' });
    expect(received.at(-1)?.to).toEqual(['ann@studio.example']);
    expect(received.at(-1)?.raw).toContain('Subject: Your order has shipped');
    expect(received.at(-1)?.raw).toContain('Tracking: 1Z999');
    const [row] = (await t.db.select().from(mailOutbox)).filter((r) => r.id === id);
    expect(row?.status).toBe('sent');
  });

  it('keeps a mail pending when the server is down, and sends it on a later sweep', async () => {
    const down = createMailer(t.db, smtpTransport('smtp://127.0.0.1:1?tls=off'), 'lab@lab.example');
    const id = await down.send({ to: 'bob@studio.example', subject: 'Reset', text: 'Token: ABC234' });
    const [pending] = (await t.db.select().from(mailOutbox)).filter((r) => r.id === id);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect(pending?.lastError).toBeTruthy();

    // The sweep leaves fresh mail alone for 30 s; age this one.
    const { sql, eq } = await import('drizzle-orm');
    await t.db.update(mailOutbox).set({ createdAt: sql`now() - interval '1 minute'` }).where(eq(mailOutbox.id, id));
    const up = createMailer(t.db, smtpTransport(`smtp://127.0.0.1:${port}?tls=off`), 'lab@lab.example');
    expect(await up.sendPending()).toBe(1);
    expect(received.at(-1)?.to).toEqual(['bob@studio.example']);
  });
});
