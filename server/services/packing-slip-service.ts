import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { LOGO_TOO_LARGE, MAX_LOGO_BYTES, type ReturnAddress } from '../../src/domain/packing-slip.ts';
import { DOWNLOAD_URL_TTL_S } from '../adapters/storage/storage.ts';
import { users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { unauthorized, validationError } from '../http/errors.ts';
import type { Actor } from './auth-service.ts';
import { inspectImage, refuseUnless } from './file-checks.ts';
import { ACCEPTED_PHOTO_KINDS, SNIFF_BYTES, kindRefusal, sniffFileType } from './file-types.ts';

/**
 * The studio's packing-slip identity on /account (docs/lab-rules.md §9): the business name of
 * the profile, a logo and a return address, printed on the blind slips of its orders.
 */

const LOGO = 'The logo';
// Decoded on the request that sends it (a logo is sent once, and small): 25 megapixels is far
// above any logo's export, and decodes in a moment; larger is refused from its header alone.
const LOGO_MAX_PIXELS = 25_000_000;
// The slip prints the logo at most two inches wide: 600 pixels is 300 dpi there.
const LOGO_SLIP_PIXELS = 600;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

const logoKeyOf = (userGuid: string) => `packing-slips/${userGuid}/logo-${randomUUID()}.jpg`;

type IdentityDeps = Pick<ServerDeps, 'db' | 'storage'>;

async function identity(deps: IdentityDeps, userGuid: string) {
  const [row] = await deps.db
    .select({ businessName: users.businessName, returnAddress: users.packingSlipReturnAddress, logoKey: users.packingSlipLogoKey })
    .from(users)
    .where(eq(users.guid, userGuid));
  if (!row) throw unauthorized();
  return {
    data: {
      business_name: row.businessName,
      return_address: row.returnAddress ?? null,
      // Signed as of this call for the owner: no other account's answer ever names the key.
      logo_link: row.logoKey ? await deps.storage.presignGet(row.logoKey, { expiresInSeconds: DOWNLOAD_URL_TTL_S }) : null,
    },
  };
}

/** GET /accounts/packing_slip: the signed-in account's own identity. */
export function packingSlipIdentity(deps: IdentityDeps, actor: Actor | null) {
  if (!actor) throw unauthorized();
  return identity(deps, actor.user.guid);
}

/** PUT /accounts/packing_slip/return_address: kept on the account, never among its shipping addresses. */
export async function setReturnAddress(deps: IdentityDeps, actor: Actor | null, input: { return_address: ReturnAddress | null }) {
  if (!actor) throw unauthorized();
  const address = input.return_address ? { ...input.return_address, street_2: input.return_address.street_2 || null } : null;
  await deps.db.update(users).set({ packingSlipReturnAddress: address }).where(eq(users.guid, actor.user.guid));
  return identity(deps, actor.user.guid);
}

/**
 * The logo's bytes, checked like every upload (docs/lab-rules.md §5): the size, the type by its
 * bytes, the pixels from the header, a complete decodable image; then kept as the slip's JPEG
 * (RGB on white, at most LOGO_SLIP_PIXELS), which the PDF places as it is. Nothing is stored
 * until every check has passed.
 */
export async function slipLogoJpeg(bytes: Buffer): Promise<Buffer> {
  if (bytes.length > MAX_LOGO_BYTES) throw validationError(LOGO_TOO_LARGE);
  const wrongKind = kindRefusal(sniffFileType(bytes.subarray(0, SNIFF_BYTES)), ACCEPTED_PHOTO_KINDS, LOGO);
  if (wrongKind) throw validationError(wrongKind);
  const meta = await sharp(bytes, { limitInputPixels: false })
    .metadata()
    .catch(() => null);
  if (!meta) throw validationError(`${LOGO} could not be read: the file is damaged. Please export it again.`);
  const { width = 0, height = 0 } = meta;
  if (width * height > LOGO_MAX_PIXELS) throw validationError(`${LOGO} is ${width} × ${height} pixels; the lab takes logos up to ${LOGO_MAX_PIXELS / 1_000_000} megapixels.`);
  refuseUnless(await inspectImage(bytes, LOGO));
  return sharp(bytes, { failOn: 'truncated', limitInputPixels: LOGO_MAX_PIXELS })
    .rotate()
    .resize(LOGO_SLIP_PIXELS, LOGO_SLIP_PIXELS, { fit: 'inside', withoutEnlargement: true })
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .jpeg({ quality: 90 })
    .toBuffer();
}

/** PUT /accounts/packing_slip/logo: the base64 of a JPEG or PNG; replaces the logo before it. */
export async function setLogo(deps: IdentityDeps, actor: Actor | null, input: { data: string }) {
  if (!actor) throw unauthorized();
  const text = input.data.replace(/^data:[^,]{0,100},/, '');
  if (!BASE64.test(text)) throw validationError(`${LOGO} could not be read: send the file's bytes as base64.`);
  const jpeg = await slipLogoJpeg(Buffer.from(text, 'base64'));
  const key = logoKeyOf(actor.user.guid);
  await deps.storage.put(key, jpeg, 'image/jpeg');
  await replaceLogoKey(deps, actor.user.guid, key);
  return identity(deps, actor.user.guid);
}

/** DELETE /accounts/packing_slip/logo. */
export async function removeLogo(deps: IdentityDeps, actor: Actor | null) {
  if (!actor) throw unauthorized();
  await replaceLogoKey(deps, actor.user.guid, null);
  return identity(deps, actor.user.guid);
}

/** Sets the account's logo key and removes the file of the one it replaces. */
async function replaceLogoKey(deps: IdentityDeps, userGuid: string, key: string | null) {
  const old = await deps.db.transaction(async (tx) => {
    const [row] = await tx.select({ key: users.packingSlipLogoKey }).from(users).where(eq(users.guid, userGuid)).for('update');
    await tx.update(users).set({ packingSlipLogoKey: key }).where(eq(users.guid, userGuid));
    return row?.key ?? null;
  });
  if (old && old !== key) await deps.storage.remove(old);
}
