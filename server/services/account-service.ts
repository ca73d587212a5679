import { randomUUID } from 'node:crypto';
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { toDollars } from '../../src/domain/money.ts';
import { addresses, labOrders, passwordResets, sessions, users } from '../db/schema.ts';
import { refusingDuplicates } from '../db/unique-violation.ts';
import { addressSnapshot, setOnOwnOpenOrder } from './order-changes.ts';
import { isAdminOrderAddress, setOrderAddressAsAdmin } from './admin-order-address.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound, unauthorized, validationError } from '../http/errors.ts';
import { PASSWORD_CHECK_LOCKED, checkPassword, normaliseEmail, type Actor } from './auth-service.ts';
import { certificateLink } from './certificate-service.ts';
import { MIN_PASSWORD_LENGTH, hashPassword } from './passwords.ts';
import { PASSWORD_RULE } from './signup-service.ts';
import { profileRead, type AddressJson, type UserFieldsRow } from './account-reads.ts';
import { connectionCodeOf, shopLists } from './shop-connection-service.ts';
import { taxReportLinks } from './tax-report-service.ts';

/** The account page's data and changes (docs/accounts.md §3, §7). A user sees and changes only their own. */

export const EMAIL_ALREADY_IN_USE = 'This email is already in use by another account.';
export const WRONG_PASSWORD = 'The password is not correct.';

/** The user as the profile shows it (docs/accounts.md §3, User), with the facts read with it (account-reads.ts). */
export async function userFields(deps: ServerDeps, user: UserFieldsRow, facts: { referredUsers: number; referrerEmail: string | null }) {
  return {
    guid: user.guid,
    email: user.email,
    first_name: user.firstName,
    last_name: user.lastName,
    business_name: user.businessName,
    business_url: user.businessUrl,
    social_media_url: user.socialMediaUrl,
    phone: user.phone,
    stripe_customer_id: user.stripeCustomerId,
    blanket_certificate_of_resale_link: user.blanketCertificateKey ? await certificateLink(deps, user.blanketCertificateKey) : null,
    referral_code: user.referralCode,
    referred_users: facts.referredUsers,
    referred_by_email: facts.referrerEmail,
    credit_available: toDollars(user.creditAvailableCents),
    user_approved: user.userApproved,
    tn_business: user.tnBusiness,
  };
}

const addressShape = (a: AddressJson) => ({
  guid: a.guid,
  recipient: a.recipient,
  street: a.street,
  street_2: a.street2,
  city: a.city,
  state_province: a.state,
  state: a.state,
  zip: a.zip,
});

/**
 * The profile shape: {user, cards:{data}, addresses:{data}, default_card, default_address}. Read
 * afresh in one query (account-reads.ts), also after a change made by the same request.
 */
export async function profile(deps: ServerDeps, actor: Actor | null) {
  if (!actor) throw unauthorized();
  const [row] = await profileRead(deps.db).execute({ guid: actor.user.guid });
  if (!row) throw unauthorized();
  const { user } = row;
  return {
    user: await userFields(deps, user, row),
    cards: { data: row.cards.map((c) => ({ id: c.id, masked_card: `${c.brand.toUpperCase()} •••• ${c.last4}` })) },
    addresses: { data: row.addresses.map(addressShape) },
    default_card: user.defaultCardId,
    default_address: user.defaultAddressGuid,
    shop_connection: { code: user.shopConnectionCode ?? (await connectionCodeOf(deps, user.guid)), ...shopLists(row.shops) },
    tax_reports: await taxReportLinks(deps, row.taxReports),
  };
}

/** BASIC INFORMATION: only the fields sent change; the phone keeps its digits. */
export async function updateBasicInformation(
  deps: ServerDeps,
  actor: Actor | null,
  guid: string,
  input: { first_name?: string | undefined; last_name?: string | undefined; business_name?: string | undefined; phone?: string | undefined },
) {
  if (!actor) throw unauthorized();
  if (actor.user.guid !== guid) throw notFound('This account does not exist.');
  const set: Partial<typeof users.$inferInsert> = {};
  if (input.first_name?.trim()) set.firstName = input.first_name.trim();
  if (input.last_name?.trim()) set.lastName = input.last_name.trim();
  if (input.business_name?.trim()) set.businessName = input.business_name.trim();
  if (input.phone !== undefined && input.phone !== '') {
    if (!/^\d{7,15}$/.test(input.phone)) throw validationError('A phone number is 7 to 15 digits.');
    set.phone = input.phone;
  }
  if (!Object.keys(set).length) throw validationError('Fill in at least one of first name, last name, business name or phone.');
  await deps.db.update(users).set({ ...set, updatedAt: sql`now()` }).where(eq(users.guid, guid));
  return profile(deps, actor);
}

export interface NewAddress {
  street_address: string;
  street_address_two?: string | undefined;
  recipient_name?: string | undefined;
  city: string;
  state: string;
  zip: string;
  /** Checkout: the order to set the address on, with update_address_on_order. */
  lab_order_id?: string | undefined;
  update_address_on_order?: boolean | undefined;
}

/** Saves an address; from checkout, also sets it on the caller's open order in the same transaction. */
/** `guid`: the new address's id (the request's changeGuid, so a retried request saves it once). */
export async function addAddress(deps: ServerDeps, actor: Actor | null, input: NewAddress, guid: string = randomUUID()) {
  if (!actor) throw unauthorized();
  // An admin correcting a photographer's order (admin-order-address.ts): the order only, recorded.
  if (isAdminOrderAddress(actor, input) && input.lab_order_id && !(await ownsOrder(deps, actor, input.lab_order_id))) {
    await setOrderAddressAsAdmin(deps, actor, input.lab_order_id, input);
    return profile(deps, actor);
  }
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(addresses)
      .values({
        guid,
        userGuid: actor.user.guid,
        street: input.street_address.trim(),
        street2: input.street_address_two?.trim() || null,
        recipient: input.recipient_name?.trim() || null,
        city: input.city.trim(),
        state: input.state.trim(),
        zip: input.zip.trim(),
      })
      // Saved already by an earlier try of this request (whose answer a crash lost).
      .onConflictDoNothing({ target: addresses.guid })
      .returning();
    if (!row) return;
    // The first address a photographer saves is their primary one.
    if (!actor.user.defaultAddressGuid) {
      await tx.update(users).set({ defaultAddressGuid: row.guid }).where(and(eq(users.guid, actor.user.guid), sql`${users.defaultAddressGuid} is null`));
    }
    if (input.lab_order_id && input.update_address_on_order) {
      await setOnOwnOpenOrder(tx, actor, input.lab_order_id, { shippingAddress: await addressSnapshot(tx, actor.user.guid, row.guid) });
    }
  });
  return profile(deps, actor);
}

/** Whether the order is the caller's own (an admin's own order takes the photographer's path). */
async function ownsOrder(deps: ServerDeps, actor: Actor, orderGuid: string): Promise<boolean> {
  const [row] = await deps.db.select({ owner: labOrders.userGuid }).from(labOrders).where(eq(labOrders.guid, orderGuid));
  return row?.owner === actor.user.guid;
}

async function ownAddress(deps: ServerDeps, actor: Actor, guid: string) {
  const [row] = await deps.db.select().from(addresses).where(and(eq(addresses.guid, guid), eq(addresses.userGuid, actor.user.guid)));
  if (!row) throw notFound('This address does not exist.');
  return row;
}

/** make_primary: an address guid, or '' to clear the choice. */
export async function setDefaultAddress(deps: ServerDeps, actor: Actor | null, makePrimary: string) {
  if (!actor) throw unauthorized();
  if (makePrimary) await ownAddress(deps, actor, makePrimary);
  await deps.db.update(users).set({ defaultAddressGuid: makePrimary || null }).where(eq(users.guid, actor.user.guid));
  return profile(deps, actor);
}

export async function removeAddress(deps: ServerDeps, actor: Actor | null, guid: string) {
  if (!actor) throw unauthorized();
  await ownAddress(deps, actor, guid);
  await deps.db.transaction(async (tx) => {
    await tx.delete(addresses).where(eq(addresses.guid, guid));
    await tx.update(users).set({ defaultAddressGuid: null }).where(and(eq(users.guid, actor.user.guid), eq(users.defaultAddressGuid, guid)));
  });
  return profile(deps, actor);
}

/**
 * CHANGE ACCOUNT EMAIL: checked against the current password; afterwards every session ends and
 * the photographer signs in with the new email (docs/accounts.md §5).
 */
export async function changeEmail(deps: ServerDeps, actor: Actor | null, input: { email: string; password: string }) {
  if (!actor) throw unauthorized();
  const email = normaliseEmail(input.email);
  // Counted with sign-in failures: a borrowed session must not become a way to guess the password.
  if (!(await checkPassword(deps, actor.user.guid, input.password, PASSWORD_CHECK_LOCKED))) throw new HttpError(422, 'IncorrectPassword', WRONG_PASSWORD);
  if (email === actor.user.email) throw new HttpError(422, 'EmailInUse', 'This email is already the email of your account.');
  const [holder] = await deps.db.select({ guid: users.guid }).from(users).where(eq(users.email, email));
  if (holder) throw new HttpError(422, 'EmailInUse', EMAIL_ALREADY_IN_USE);
  // Two accounts changing to one email at once: the index lets one have it, the other is told so.
  await refusingDuplicates(
    () =>
      deps.db.transaction(async (tx) => {
        await tx.update(users).set({ email, updatedAt: sql`now()` }).where(eq(users.guid, actor.user.guid));
        await tx.delete(sessions).where(eq(sessions.userGuid, actor.user.guid));
      }),
    { users_email_key: () => new HttpError(422, 'EmailInUse', EMAIL_ALREADY_IN_USE) },
  );
  return { success: true as const };
}

/**
 * A new password for one's own account (PATCH /users/{guid} with password and confirmation). The
 * current password is asked for too, as for an email change: a borrowed session must not be
 * enough to lock the owner out. The session making the change stays; every other one ends.
 */
export async function changePassword(
  deps: ServerDeps,
  actor: Actor | null,
  guid: string,
  input: { password: string; password_confirmation: string; current_password: string; email?: string | undefined },
) {
  if (!actor) throw unauthorized();
  if (actor.user.guid !== guid) throw notFound('This account does not exist.');
  if (!(await checkPassword(deps, actor.user.guid, input.current_password, PASSWORD_CHECK_LOCKED))) throw new HttpError(422, 'IncorrectPassword', WRONG_PASSWORD);
  if (input.email !== undefined && normaliseEmail(input.email) !== actor.user.email) throw validationError('Use CHANGE ACCOUNT EMAIL to change the email of your account.');
  if (input.password.length < MIN_PASSWORD_LENGTH || input.password !== input.password_confirmation) throw validationError(PASSWORD_RULE);
  const passwordHash = await hashPassword(input.password);
  await deps.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, updatedAt: sql`now()` }).where(eq(users.guid, guid));
    await tx.delete(sessions).where(and(eq(sessions.userGuid, guid), ne(sessions.id, actor.sessionId)));
    await tx.update(passwordResets).set({ usedAt: sql`now()` }).where(and(eq(passwordResets.userGuid, guid), isNull(passwordResets.usedAt)));
  });
  return profile(deps, actor);
}
