import { API, routePath } from '../domain/paths.ts';
import { apiRequest } from './client.ts';

export interface AccountUser {
  guid: string;
  email: string;
  first_name: string;
  last_name: string;
  business_name: string;
  business_url: string | null;
  social_media_url: string | null;
  phone: string | null;
  stripe_customer_id: string | null;
  blanket_certificate_of_resale_link: string | null;
  referral_code: string | null;
  referred_users: number;
  referred_by_email: string | null;
  credit_available: number;
  user_approved: boolean;
  tn_business: boolean | null;
}

export interface Address {
  guid: string;
  recipient: string | null;
  street: string;
  street_2: string | null;
  city: string;
  state_province: string;
  state: string;
  zip: string;
}

export interface Profile {
  user: AccountUser;
  cards: { data: { id: string; masked_card: string }[] };
  addresses: { data: Address[] };
  default_card: string | null;
  default_address: string | null;
  shop_connection: { code: string; shops: string[]; pending: PendingShop[] };
  tax_reports: { year: number; status: 'none' | 'generating' | 'ready' | 'failed'; csv_link: string | null; pdf_link: string | null }[];
}

/** A shop that asked to connect and waits for the photographer's CONFIRM. */
export interface PendingShop {
  id: string;
  shop: string;
  requested_at: string;
}

export interface ReferralRow {
  name: string;
  business_name: string;
  email: string;
  credit_earned: number;
}

export const getProfile = () => apiRequest<Profile>('GET', API.profile);

export const updateBasicInformation = (guid: string, body: { first_name?: string; last_name?: string; business_name?: string; phone?: string }) =>
  apiRequest<Profile>('PATCH', routePath(API.user, { guid }), { body });

export const addAddress = (body: { street_address: string; city: string; state: string; zip: string }) => apiRequest<Profile>('POST', API.addresses, { body });

export const makePrimaryAddress = (guid: string) => apiRequest<Profile>('POST', API.updateDefaultAddress, { body: { make_primary: guid } });

export const removeAddress = (guid: string) => apiRequest<Profile>('POST', API.removeAddress, { body: { selected_item: guid } });

export const updateUserEmail = (email: string, password: string) => apiRequest<{ success: true }>('PATCH', API.updateUserEmail, { body: { email, password } });

export const getReferrals = () => apiRequest<{ data: ReferralRow[] }>('GET', API.referrals);

export const getPhotographerCredit = (guid: string) =>
  apiRequest<{ data: { user: AccountUser; referrals: ReferralRow[] } }>('GET', routePath(API.photographer, { guid }));

/** `shopifyQuery`: the page's query as Shopify opened it (its hmac proves the shop when the lab checks it). */
export const connectShop = (code: string, shop: string, shopifyQuery: string) =>
  apiRequest<{ success: true; shop: string; status: 'connected' | 'pending' }>('POST', API.shopConnections, {
    body: { code, shop, ...(shopifyQuery ? { shopify_query: shopifyQuery } : {}) },
    auth: false,
  });

export const confirmShopConnection = (id: string) => apiRequest<{ success: true; shop: string }>('POST', routePath(API.confirmShopConnection, { id }));

export const declineShopConnection = (id: string) => apiRequest<{ success: true }>('DELETE', routePath(API.shopConnection, { id }));

export const generateTaxReport = (year: number) => apiRequest<{ year: number; status: 'generating' }>('POST', API.generateTaxReport, { body: { year } });
