import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { DOWNLOAD_URL_TTL_S } from '../adapters/storage/storage.ts';
import { users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { notFound, unauthorized, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { checkFileEnds } from './file-checks.ts';
import { INCOMING_PREFIX, discardUpload, issueUpload, sealUpload } from './upload-service.ts';

// A scanned multi-page certificate is a few MB; 20 MB leaves room without inviting abuse.
export const MAX_CERTIFICATE_BYTES = 20 * 1024 * 1024;
export const CERTIFICATE_NOT_PDF = 'The blanket certificate of resale must be a PDF file.';
const CERTIFICATE = 'The blanket certificate of resale';

const keyPrefix = (userGuid: string) => `certificates/${userGuid}/`;

/** A signed address the browser PUTs the certificate to (docs/accounts.md §4, certificate upload). */
export async function presignCertificate(deps: ServerDeps, actor: Actor | null, input: { guid: string; file_name: string }) {
  if (!actor) throw unauthorized();
  if (input.guid !== actor.user.guid) throw notFound('This account does not exist.');
  if (!/\.pdf$/i.test(input.file_name)) throw validationError(CERTIFICATE_NOT_PDF);
  const upload = await issueUpload(deps, {
    ownerGuid: actor.user.guid,
    purpose: 'certificate',
    key: `${keyPrefix(actor.user.guid)}${randomUUID()}.pdf`,
    contentType: 'application/pdf',
    maxBytes: MAX_CERTIFICATE_BYTES,
  });
  return { signedUrl: upload.url, key: upload.key, headers: upload.headers };
}

/**
 * The browser says the upload is done: the upload is sealed (its address stops working) and the
 * file is checked by content before it is kept; a file that is no PDF is removed at once.
 */
export async function confirmCertificate(deps: ServerDeps, actor: Actor | null, input: { key: string }) {
  if (!actor) throw unauthorized();
  // Only keys this service made: the user's folder, a uuid, .pdf (no other path reaches storage).
  const own = new RegExp(`^${INCOMING_PREFIX}${keyPrefix(actor.user.guid)}[0-9a-f-]{36}\\.pdf$`);
  if (!own.test(input.key)) throw notFound('This upload does not exist.');
  const sealed = await sealUpload(deps, { key: input.key, ownerGuid: actor.user.guid, purpose: 'certificate' });
  if (!sealed.again) {
    // A PDF by its bytes, and complete (a cut-off upload is refused, not kept); checked only
    // once sealed, so no PUT can swap the file after the check.
    const verdict = await checkFileEnds(
      { readStart: (bytes) => deps.storage.readStart(sealed.key, bytes), readEnd: (bytes) => deps.storage.readEnd(sealed.key, bytes) },
      ['pdf'],
      CERTIFICATE,
    );
    if (!verdict.ok) {
      await discardUpload(deps, input.key);
      throw validationError(verdict.reason);
    }
    await deps.db.update(users).set({ blanketCertificateKey: sealed.key, updatedAt: sql`now()` }).where(eq(users.guid, actor.user.guid));
  }
  return { blanket_certificate_of_resale_link: await certificateLink(deps, sealed.key) };
}

export const certificateLink = (deps: ServerDeps, key: string) =>
  deps.storage.presignGet(key, { expiresInSeconds: DOWNLOAD_URL_TTL_S, downloadName: 'blanket-certificate-of-resale.pdf' });
