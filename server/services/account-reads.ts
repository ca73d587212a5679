import { eq, sql } from 'drizzle-orm';
import { perDatabase } from '../db/prepared.ts';
import { addresses, cards, creditLedger, shopConnections, taxReports, users } from '../db/schema.ts';

/**
 * The account's reads, each one prepared query (server/db/prepared.ts): the profile was ten
 * queries (the user again, addresses, cards, two for referrals, the connection code, two for
 * shops, tax reports) and is one, its lists as JSON built by the database.
 */

// The outer user's columns, named in full: in a select from one table Drizzle writes a column
// without its table, which inside a subquery would name the subquery's own column.
const userGuid = sql.raw('"users"."guid"');
const referredByGuid = sql.raw('"users"."referred_by_guid"');

/** How many photographers the user referred, and who referred them (docs/accounts.md §3, User). */
const referralFacts = {
  referredUsers: sql<number>`(select count(*)::int from ${users} r where r.referred_by_guid = ${userGuid})`,
  referrerEmail: sql<string | null>`(select r.email from ${users} r where r.guid = ${referredByGuid})`,
};

export interface AddressJson {
  guid: string;
  recipient: string | null;
  street: string;
  street2: string | null;
  city: string;
  state: string;
  zip: string;
}
export interface CardJson {
  id: string;
  brand: string;
  last4: string;
}
export interface ShopJson {
  id: string;
  shop: string;
  /** As JSON writes a timestamptz (ISO 8601 with an offset). */
  connectedAt: string;
  confirmed: boolean;
}
export interface TaxReportJson {
  year: number;
  status: string;
  csvKey: string | null;
  pdfKey: string | null;
}

// Each list in the order the account page shows it; '[]' when there is none.
const addressList = sql<AddressJson[]>`coalesce((select json_agg(json_build_object(
  'guid', a.guid, 'recipient', a.recipient, 'street', a.street, 'street2', a.street_2, 'city', a.city, 'state', a.state, 'zip', a.zip
) order by a.created_at) from ${addresses} a where a.user_guid = ${userGuid}), '[]'::json)`;
const cardList = sql<CardJson[]>`coalesce((select json_agg(json_build_object(
  'id', c.id, 'brand', c.brand, 'last4', c.last4
) order by c.created_at) from ${cards} c where c.user_guid = ${userGuid} and c.kept), '[]'::json)`;
const shopList = sql<ShopJson[]>`coalesce((select json_agg(json_build_object(
  'id', s.id, 'shop', s.shop_domain, 'connectedAt', s.connected_at, 'confirmed', s.confirmed_at is not null
) order by s.connected_at) from ${shopConnections} s where s.user_guid = ${userGuid}), '[]'::json)`;
const taxReportList = sql<TaxReportJson[]>`coalesce((select json_agg(json_build_object(
  'year', t.year, 'status', t.status, 'csvKey', t.csv_key, 'pdfKey', t.pdf_key
)) from ${taxReports} t where t.user_guid = ${userGuid}), '[]'::json)`;

export interface ReferralJson {
  firstName: string;
  lastName: string;
  businessName: string;
  email: string;
  /** Cents of referral credit the referred photographer's orders earned the user. */
  earned: number;
}

// The photographers the user referred, oldest first, with the credit each earned them (less what a
// cancellation or full refund took back).
const referralList = sql<ReferralJson[]>`coalesce((select json_agg(json_build_object(
  'firstName', r.first_name, 'lastName', r.last_name, 'businessName', r.business_name, 'email', r.email,
  'earned', coalesce((select sum(l.amount_cents) from ${creditLedger} l
    where l.user_guid = ${userGuid} and l.referred_user_guid = r.guid and l.reason in ('referral', 'referral_clawback')), 0)
) order by r.created_at) from ${users} r where r.referred_by_guid = ${userGuid}), '[]'::json)`;

/**
 * The user columns the account's user block shows (account-service.ts, userFields): the credit
 * page reads only these, not the whole row (password hash, sessions' bookkeeping, ...). Each
 * column read costs decoding on every call; a third of the page's query time went to columns
 * nobody showed.
 */
export const userFieldColumns = {
  guid: users.guid,
  email: users.email,
  firstName: users.firstName,
  lastName: users.lastName,
  businessName: users.businessName,
  businessUrl: users.businessUrl,
  socialMediaUrl: users.socialMediaUrl,
  phone: users.phone,
  stripeCustomerId: users.stripeCustomerId,
  blanketCertificateKey: users.blanketCertificateKey,
  referralCode: users.referralCode,
  creditAvailableCents: users.creditAvailableCents,
  userApproved: users.userApproved,
  tnBusiness: users.tnBusiness,
};
export type UserFieldsRow = Pick<typeof users.$inferSelect, keyof typeof userFieldColumns>;

/** A photographer's credit page: the user, who referred them, and whom they referred; none when the guid is no user's. */
export const photographerPage = perDatabase((db) =>
  db
    .select({ user: userFieldColumns, referrerEmail: referralFacts.referrerEmail, referrals: referralList })
    .from(users)
    .where(eq(users.guid, sql.placeholder('guid')))
    .prepare('account_photographer_page'),
);

/** Everything the profile shows, in one query. */
export const profileRead = perDatabase((db) =>
  db
    .select({ user: users, ...referralFacts, addresses: addressList, cards: cardList, shops: shopList, taxReports: taxReportList })
    .from(users)
    .where(eq(users.guid, sql.placeholder('guid')))
    .prepare('account_profile'),
);
