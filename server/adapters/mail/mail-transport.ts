import type { StatusMailStep } from '../../../src/domain/status-mails.ts';
import type { Transporter } from 'nodemailer';
import type { Config } from '../../config.ts';

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/** A mail as queued: `secret` (a token in the text) is blanked in the outbox once delivered. */
export interface OutgoingMail extends Mail {
  secret?: string;
  /** An order status mail: not queued when its photographer turned that step's mail off. */
  statusStep?: { userGuid: string; step: StatusMailStep };
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

/**
 * Production without SMTP: nothing is delivered. The mail stays in the outbox table; the log
 * says only that one was queued, to whom and about what, never its text (it may hold a reset code).
 */
// Printing is this transport's whole job.
// oxlint-disable-next-line no-console
export function heldTransport(print: (line: string) => void = console.log): MailTransport {
  return {
    name: 'log',
    async deliver(mail) {
      print(`Mail to ${mail.to} queued, not delivered (SMTP_URL is not set): ${mail.subject}`);
    },
  };
}

/** The transport the configuration asks for: SMTP when set; else the log, whole mails only outside production. */
// oxlint-disable-next-line no-console
export function mailTransportFor(config: Pick<Config, 'smtpUrl' | 'production'>, print: (line: string) => void = console.log): MailTransport {
  if (config.smtpUrl) return smtpTransport(config.smtpUrl);
  return config.production ? heldTransport(print) : logTransport(print);
}

/** Any SMTP server, from SMTP_URL (smtp://user:pass@host:587 or smtps://…). */
export function smtpTransport(url: string): MailTransport {
  const parsed = new URL(url);
  // nodemailer is loaded with the first mail, not at every start of the lab.
  let transporter: Promise<Transporter> | null = null;
  const connect = async () => (await import('nodemailer')).default.createTransport({
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
      transporter ??= connect();
      await (await transporter).sendMail({ from: mail.from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}
