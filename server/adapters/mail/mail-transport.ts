import nodemailer from 'nodemailer';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** A mail as queued: `secret` (a token in the text) is blanked in the outbox once delivered. */
export interface OutgoingMail extends Mail {
  secret?: string;
}

/** Hands a mail to the world: SMTP in production, the log by default. */
export interface MailTransport {
  readonly name: 'log' | 'smtp';
  deliver(mail: Mail & { from: string }): Promise<void>;
}

/** The embedded default: the mail is printed, and stays readable in the outbox table. */
// Printing is this transport's whole job.
// oxlint-disable-next-line no-console
export function logTransport(print: (line: string) => void = console.log): MailTransport {
  return {
    name: 'log',
    async deliver(mail) {
      print(`Mail to ${mail.to}: ${mail.subject}\n${mail.text}`);
    },
  };
}

/** Any SMTP server, from SMTP_URL (smtp://user:pass@host:587 or smtps://…). */
export function smtpTransport(url: string): MailTransport {
  const parsed = new URL(url);
  const transporter = nodemailer.createTransport({
    host: parsed.hostname,
    port: Number(parsed.port) || (parsed.protocol === 'smtps:' ? 465 : 587),
    secure: parsed.protocol === 'smtps:',
    // ?tls=off for a loopback relay without certificates; everything else negotiates STARTTLS when offered.
    ignoreTLS: parsed.searchParams.get('tls') === 'off',
    auth: parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined,
  });
  return {
    name: 'smtp',
    async deliver(mail) {
      await transporter.sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
