import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { and, eq, ne } from 'drizzle-orm';
import { refreshFigures } from '../../server/services/order-figures.ts';
import { addresses, cards, catalogues, discountCodes, labOrders, lineItems, orderClientAddresses, papers, passwordResets, photographs, printSizes, sandboxCharges, sessions, shopConnections, users, webhookDeliveries, webhookEndpoints } from '../../server/db/schema.ts';
import { SESSION_TTL_MS, hashToken } from '../../server/services/auth-service.ts';
import { RESET_TOKEN_TTL_MS } from '../../server/services/password-reset-service.ts';
import { hashPassword } from '../../server/services/passwords.ts';
import { PART_SIZE } from '../../server/services/photo-upload-service.ts';
import { issueMultipartUpload, issueUpload } from '../../server/services/upload-service.ts';
import { storePaperProfile } from '../../server/services/paper-profile-service.ts';
import { paperProfileFileName } from '../../src/domain/paper-profile.ts';
import { api, type TestApp } from './helper.ts';
import { cmykPrinterProfile } from './paper-profile-files.ts';
import { minimalPdf, noisyJpeg } from './hostile-files.ts';

/**
 * The people and things the authorisation matrix and the hostile-input properties call routes
 * on: photographer A (the owner) with an address, a card, an order, an uploaded certificate, a
 * shop code and a live reset token; photographer B (the other); an admin; and a session for each
 * caller, including the admin acting as A. Made fresh for every request, so a route that removes
 * or changes something cannot change the next cell's answer.
 */

/** Who calls: nobody, A, B on A's things, an admin on A's things, an admin acting as A. */
export type Caller = 'anonymous' | 'owner' | 'other' | 'admin' | 'adminAsOwner';
export const CALLERS: readonly Caller[] = ['anonymous', 'owner', 'other', 'admin', 'adminAsOwner'];

export interface Person {
  guid: string;
  email: string;
  password: string;
  referralCode: string;
}

export interface World {
  owner: Person;
  other: Person;
  admin: Person;
  ownerAddress: string;
  ownerCard: string;
  ownerOrder: string;
  ownerOrderName: string;
  /** A photo of A's order. */
  ownerPhoto: string;
  /** A photo of A's order uploaded through a signed PUT, not yet confirmed (photograph_uploaded). */
  ownerPhotoUpload: string;
  /** A multipart upload into A's order with its one part sent (fresh part URLs, complete_upload). */
  ownerMultipart: { uploadId: string; etag: string };
  ownerCertificateKey: string;
  ownerShopCode: string;
  /** A shop connection of A's waiting for A's CONFIRM. */
  ownerPendingShop: string;
  ownerResetToken: string;
  /** A print size of the active catalogue, and its paper. */
  printSize: string;
  paper: string;
  /** A printer profile (base64) an admin may attach to `paper` (attached already), and the file name it is served by. */
  paperProfile: string;
  paperProfileFile: string;
  /** A line item of A's order: A's photo as a print of `printSize`, no finishing. */
  ownerLineItem: string;
  /** Signed storage URLs for A's certificate. */
  signedPut: string;
  signedGet: string;
  /** A paid order of A (paid a minute ago by a $10.00 sandbox charge): refunds and cancellation. */
  ownerPaidOrder: string;
  /** Another open order of A, empty (merges). */
  ownerSecondOrder: string;
  /** A discount code anyone may check (no one owns a code). */
  discountCode: string;
  /** A partner webhook of A's, and one delivery of it. */
  ownerWebhook: string;
  ownerWebhookDelivery: string;
  /** The session token of each caller but the anonymous one. */
  tokens: Record<Exclude<Caller, 'anonymous'>, string>;
}

/** The account a caller acts on: their own, or A's for an admin acting as A. */
export function actingAs(w: World, caller: Caller): Person | null {
  if (caller === 'anonymous') return null;
  return caller === 'owner' || caller === 'adminAsOwner' ? w.owner : caller === 'other' ? w.other : w.admin;
}

export interface WorldMaker {
  (): Promise<World>;
}

const PASSWORD = 'matrix-password-1';
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';
let counter = 0;

/** Returns a function making a fresh world; the password is hashed once (argon2 is slow). */
export async function worldMaker(t: TestApp, opts: { impersonateThroughApi: boolean }): Promise<WorldMaker> {
  const passwordHash = await hashPassword(PASSWORD);
  // A print size that needs no finishing (Brushed Canvas must be finished), so a line item of it is valid.
  const [size] = await t.db
    .select({ guid: printSizes.guid, priceCents: printSizes.priceCents, paper: printSizes.paperGuid })
    .from(printSizes)
    .innerJoin(papers, eq(papers.guid, printSizes.paperGuid))
    .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)))
    .where(ne(papers.name, 'Brushed Canvas'))
    .limit(1);
  if (!size) throw new Error('no catalogue: call ensureCatalogue first');
  const profile = await cmykPrinterProfile();
  const storedProfile = await storePaperProfile(t, profile, 'matrix.icc');
  // Another paper keeps the profile for good, so the file stays stored when an admin's DELETE takes
  // it off the world's paper (each world attaches it to that paper again, below).
  const [keeper] = await t.db
    .select({ guid: papers.guid })
    .from(papers)
    .innerJoin(catalogues, and(eq(catalogues.id, papers.catalogueId), eq(catalogues.active, true)))
    .where(ne(papers.guid, size.paper))
    .limit(1);
  if (!keeper) throw new Error('the catalogue has a single paper: the world needs two');
  await t.db.update(papers).set({ iccProfileKey: storedProfile.key }).where(eq(papers.guid, keeper.guid));

  return async () => {
    counter += 1;
    const tag = `${counter}${randomBytes(3).toString('hex')}`.toUpperCase();
    const person = (role: string, isAdmin = false) => ({
      email: `${role}-${tag.toLowerCase()}@matrix.example`,
      passwordHash,
      firstName: role,
      lastName: `Matrix ${tag}`,
      businessName: `${role} studio`,
      referralCode: `${role.toUpperCase()}${tag}`,
      shopConnectionCode: `${role.toUpperCase()}-${tag}`,
      isAdmin,
    });
    const rows = await t.db.insert(users).values([person('owner'), person('other'), person('admin', true)]).returning();
    const [a, b, admin] = rows.map((u) => ({ guid: u.guid, email: u.email, password: PASSWORD, referralCode: u.referralCode ?? '' }));
    if (!a || !b || !admin) throw new Error('world users not created');

    const now = t.clock.now;
    const token = () => randomBytes(32).toString('base64url');
    const tokens = { owner: token(), other: token(), admin: token(), adminAsOwner: token() };
    const session = (userGuid: string, raw: string, impersonatorGuid: string | null = null) => ({
      tokenHash: hashToken(raw),
      userGuid,
      impersonatorGuid,
      lastUsedAt: now,
      expiresAt: new Date(now.getTime() + SESSION_TTL_MS),
    });
    await t.db.insert(sessions).values([session(a.guid, tokens.owner), session(b.guid, tokens.other), session(admin.guid, tokens.admin)]);
    if (opts.impersonateThroughApi) {
      // login_as_user exists: the admin's impersonation token comes from it (docs/orders.md §7).
      const res = await t.app.inject({ method: 'POST', url: api('/login_as_user'), headers: { token: tokens.admin }, payload: { email: a.email } });
      if (res.statusCode !== 200) throw new Error(`login_as_user: ${res.statusCode} ${res.body}`);
      tokens.adminAsOwner = res.json<{ token: string }>().token;
    } else {
      // As login_as_user will make it: A's session, with the admin recorded as impersonator.
      await t.db.insert(sessions).values(session(a.guid, tokens.adminAsOwner, admin.guid));
    }

    await t.db.update(papers).set({ iccProfileKey: storedProfile.key }).where(eq(papers.guid, size.paper));
    const [address] = await t.db.insert(addresses).values({ userGuid: a.guid, street: '1 Darkroom Lane', city: 'Nashville', state: 'TN', zip: '37201' }).returning();
    const [card] = await t.db
      .insert(cards)
      .values({ userGuid: a.guid, provider: 'sandbox', providerCardId: `card_${tag}`, brand: 'visa', last4: '4242', expMonth: 12, expYear: 2031, sandboxBehaviour: 'succeeds' })
      .returning();
    // Ready to check out: A's card and address chosen (the world's line item is added below).
    const [order] = await t.db
      .insert(labOrders)
      .values({
        userGuid: a.guid,
        orderName: `Matrix ${tag}`,
        selectedCardId: card?.id ?? null,
        usedSavedCard: true,
        shippingAddress: address ? { guid: address.guid, recipient: null, street: address.street, street2: null, city: address.city, state: address.state, zip: address.zip, phone: null } : null,
        // A blind packing slip chosen, so the lab's slip download has one to make.
        blindSlip: true,
      })
      .returning();
    // Shipped straight to A's client: the only kind of order a blind slip goes with.
    if (order) await t.db.insert(orderClientAddresses).values({ labOrderId: order.id, recipient: 'Matrix Client', street: '1 Client Way', city: 'Memphis', state: 'TN', zip: '38103' });
    const resetToken = Array.from({ length: 6 }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
    await t.db.insert(passwordResets).values({ userGuid: a.guid, tokenHash: hashToken(resetToken), expiresAt: new Date(now.getTime() + RESET_TOKEN_TTL_MS) });
    // A's certificate, uploaded through a recorded signed address and not yet confirmed.
    const upload = await issueUpload(
      { db: t.db, storage: t.storage, now: () => t.clock.now },
      { ownerGuid: a.guid, purpose: 'certificate', key: `certificates/${a.guid}/${randomUUID()}.pdf`, contentType: 'application/pdf', maxBytes: 1024 * 1024 },
    );
    await t.storage.put(upload.key, minimalPdf(), 'application/pdf');
    const get = await t.storage.presignGet(upload.key, { expiresInSeconds: 600 });
    // A's photos: one in the order, one uploaded and waiting for photograph_uploaded, one multipart
    // upload with its single part sent and waiting for complete_upload.
    const deps = { db: t.db, storage: t.storage, now: () => t.clock.now };
    const jpeg = await noisyJpeg(48, 32);
    const photoKey = `photos/${order?.guid}/${randomUUID()}.jpg`;
    await t.storage.put(photoKey, jpeg, 'image/jpeg');
    const [photo] = await t.db
      .insert(photographs)
      .values({ labOrderId: order?.id ?? 0, fileName: 'matrix.jpg', key: photoKey, size: jpeg.length, checksum: randomBytes(32).toString('hex'), contentType: 'image/jpeg', width: 48, height: 32 })
      .returning();
    const photoUpload = await issueUpload(deps, { ownerGuid: a.guid, purpose: 'photo', key: `photos/${order?.guid}/${randomUUID()}.jpg`, contentType: 'image/jpeg', maxBytes: jpeg.length, declaredSize: jpeg.length });
    await t.storage.put(photoUpload.key, jpeg, 'image/jpeg');
    const multipart = await issueMultipartUpload(deps, {
      ownerGuid: a.guid,
      purpose: 'photo',
      key: `photos/${order?.guid}/${randomUUID()}.jpg`,
      contentType: 'image/jpeg',
      maxBytes: jpeg.length,
      partSize: PART_SIZE,
      declaredSize: jpeg.length,
    });
    const etag = await t.storage.receivePart(multipart.key, multipart.multipartUploadId ?? '', 1, Readable.from([jpeg]), jpeg.length, async () => {});
    const [pendingShop] = await t.db.insert(shopConnections).values({ userGuid: a.guid, shopDomain: `pending-${tag.toLowerCase()}.myshopify.com` }).returning();
    const [lineItem] = await t.db
      .insert(lineItems)
      .values({ guid: randomUUID(), labOrderId: order?.id ?? 0, photographId: photo?.id ?? 0, printSizeGuid: size.guid, cropX: 0, cropY: 0, cropW: 100, cropH: 100, quantity: 1, printCents: size.priceCents, finishingCents: 0 })
      .returning();
    // The order's stored figures, as every change of a cart stores them (checkout charges only
    // the TOTAL it showed).
    await t.db.transaction((tx) => refreshFigures(tx, order?.id ?? 0));
    // A's paid order: charged $10.00 through the sandbox a minute ago.
    const chargeId = `ch_sandbox_matrix_${tag.toLowerCase()}`;
    await t.db.insert(sandboxCharges).values({
      idempotencyKey: `matrix-${tag}`,
      id: chargeId,
      providerCardId: card?.providerCardId ?? '',
      amountCents: 1000,
      status: 'succeeded',
      description: 'matrix',
      metadata: {},
    });
    const [paid] = await t.db
      .insert(labOrders)
      .values({ userGuid: a.guid, orderName: `Matrix paid ${tag}`, status: 'paid', paidAt: new Date(now.getTime() - 60_000), subtotalCents: 1000, totalCents: 1000, paymentConfirmation: chargeId })
      .returning();
    const [second] = await t.db.insert(labOrders).values({ userGuid: a.guid, orderName: `Matrix second ${tag}` }).returning();
    const [code] = await t.db.insert(discountCodes).values({ code: `MATRIX-${tag}`, kind: 'percent', percent: 10 }).returning();
    const [webhook] = await t.db.insert(webhookEndpoints).values({ userGuid: a.guid, url: 'https://partner.example.com/hooks', secret: `whsec_${tag}` }).returning();
    const [delivery] = webhook
      ? await t.db.insert(webhookDeliveries).values({ endpointGuid: webhook.guid, eventId: randomUUID(), eventType: 'order.accepted', orderGuid: paid?.guid ?? null, payload: {}, state: 'delivered' }).returning()
      : [];
    if (!address || !card || !order || !pendingShop || !photo || !lineItem || !code || !paid || !second || !webhook || !delivery) throw new Error('world things not created');

    return {
      owner: a,
      other: b,
      admin,
      ownerAddress: address.guid,
      ownerCard: card.id,
      ownerOrder: order.guid,
      ownerOrderName: order.orderName,
      ownerPhoto: photo.guid,
      ownerPhotoUpload: photoUpload.key,
      ownerMultipart: { uploadId: multipart.multipartUploadId ?? '', etag },
      ownerCertificateKey: upload.key,
      ownerShopCode: `OWNER-${tag}`,
      ownerPendingShop: pendingShop.id,
      ownerResetToken: resetToken,
      printSize: size.guid,
      paper: size.paper,
      paperProfile: profile.toString('base64'),
      paperProfileFile: paperProfileFileName(storedProfile.key),
      ownerLineItem: lineItem.guid,
      signedPut: upload.url,
      signedGet: get,
      discountCode: code.code,
      ownerPaidOrder: paid.guid,
      ownerSecondOrder: second.guid,
      ownerWebhook: webhook.guid,
      ownerWebhookDelivery: delivery.guid,
      tokens,
    };
  };
}
