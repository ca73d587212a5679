/**
 * The server the end-to-end tests drive: the real lab server, with a real SMTP server on
 * loopback in front of it. Every mail it receives is written to E2E_MAIL_DIR as a file, where
 * the tests read it as a photographer reads their inbox.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SMTPServer } from 'smtp-server';

const dir = process.env.E2E_MAIL_DIR;
if (!dir) throw new Error('E2E_MAIL_DIR is not set');
mkdirSync(dir, { recursive: true });

let received = 0;
const smtp = new SMTPServer({
  authOptional: true,
  // smtp-server's built-in certificate has expired: plain SMTP on loopback.
  disabledCommands: ['STARTTLS'],
  onData(stream, session, callback) {
    let raw = '';
    stream.on('data', (d: Buffer) => (raw += d.toString()));
    stream.on('end', () => {
      received += 1;
      const to = session.envelope.rcptTo.map((r) => r.address).join(',');
      writeFileSync(join(dir, `${Date.now()}-${received}.eml`), `X-Envelope-To: ${to}\r\n${raw}`);
      callback();
    });
  },
});

const port = await new Promise<number>((resolve) => {
  smtp.listen(0, '127.0.0.1', () => resolve((smtp.server.address() as { port: number }).port));
});
process.env.SMTP_URL = `smtp://127.0.0.1:${port}?tls=off`;
// Checkout's discount codes, made as an admin makes them, before the lab opens its database.
await (await import('./checkout-seed.ts')).seedDiscountCodes();
// A paid order long past its cancellation window (order-cancel.spec.ts).
await (await import('./order-actions-seed.ts')).seedLatePaidOrder();
// A paid order past its promised ship date, for the lab's schedule to find (delay-notices.spec.ts).
await (await import('./delay-notice-seed.ts')).seedLateOrder();
await import('../../server/main.ts');
