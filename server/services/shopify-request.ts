import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Shopify's proof that a page was opened from a shop's admin: the query it opens the page with
 * carries `hmac`, the HMAC-SHA256 (hex) of the other parameters, sorted by name and joined as a
 * query string, keyed with the app's API secret (shopify.dev, "Verify a request").
 */

// A signature older than this is refused: time enough to find and type the connection code,
// short enough that a link copied from a browser history or a log soon stops working.
export const SHOPIFY_QUERY_MAX_AGE_S = 60 * 60;
// Clocks differ a little: a timestamp this far ahead of ours is still taken.
const CLOCK_SKEW_S = 5 * 60;

/** The signed message of a query: every parameter but hmac and signature, sorted by name. */
export function shopifySignedMessage(params: URLSearchParams): string {
  const entries = [...params].filter(([name]) => name !== 'hmac' && name !== 'signature');
  // Sorted as Shopify's own library sorts them; a stable sort keeps repeated names in order.
  entries.sort(([a], [b]) => a.localeCompare(b));
  return new URLSearchParams(entries).toString();
}

/** The shop a query proves, or null when its signature is missing, wrong or stale. */
export function verifyShopifyQuery(query: string, secret: string, now: Date): { shop: string } | null {
  const params = new URLSearchParams(query.replace(/^\?/, ''));
  const hmac = params.get('hmac') ?? '';
  if (!/^[0-9a-f]{64}$/i.test(hmac)) return null;
  const want = createHmac('sha256', secret).update(shopifySignedMessage(params)).digest();
  // Constant time: a timing difference must not tell how much of a forged signature was right.
  if (!timingSafeEqual(want, Buffer.from(hmac, 'hex'))) return null;
  const timestamp = Number(params.get('timestamp'));
  const age = now.getTime() / 1000 - timestamp;
  if (!Number.isInteger(timestamp) || age > SHOPIFY_QUERY_MAX_AGE_S || age < -CLOCK_SKEW_S) return null;
  const shop = params.get('shop');
  return shop ? { shop } : null;
}
