import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SHOPIFY_QUERY_MAX_AGE_S, shopifySignedMessage, verifyShopifyQuery } from '../../../server/services/shopify-request.ts';

// Shopify's published example: secret "hush" and this query (the hmac is of the other parameters).
const EXAMPLE = 'code=0907a61c0c8d55e99db179b68161bc00&hmac=4712bf92ffc2917d15a2f5a273e39f0116667419aa4b6ac0b3baaf26fa3c4d20&shop=some-shop.myshopify.com&timestamp=1337178173';
const AT_EXAMPLE_TIME = new Date(1337178173 * 1000 + 30_000);

describe("verifying Shopify's signed query", () => {
  it("accepts Shopify's published example, whatever the order of the parameters", () => {
    expect(verifyShopifyQuery(EXAMPLE, 'hush', AT_EXAMPLE_TIME)).toEqual({ shop: 'some-shop.myshopify.com' });
    const shuffled = EXAMPLE.split('&').toReversed().join('&');
    expect(verifyShopifyQuery(`?${shuffled}`, 'hush', AT_EXAMPLE_TIME)).toEqual({ shop: 'some-shop.myshopify.com' });
  });

  it('signs the sorted parameters without hmac and signature', () => {
    expect(shopifySignedMessage(new URLSearchParams('timestamp=1&shop=a.myshopify.com&hmac=x&signature=y&code=z'))).toBe('code=z&shop=a.myshopify.com&timestamp=1');
  });

  it('refuses another secret, a changed parameter, a missing or malformed hmac', () => {
    expect(verifyShopifyQuery(EXAMPLE, 'hush!', AT_EXAMPLE_TIME)).toBeNull();
    expect(verifyShopifyQuery(EXAMPLE.replace('some-shop', 'other-shop'), 'hush', AT_EXAMPLE_TIME)).toBeNull();
    expect(verifyShopifyQuery(EXAMPLE.replace(/hmac=[^&]+&/, ''), 'hush', AT_EXAMPLE_TIME)).toBeNull();
    expect(verifyShopifyQuery(EXAMPLE.replace(/hmac=[^&]+/, 'hmac=4712'), 'hush', AT_EXAMPLE_TIME)).toBeNull();
  });

  it('refuses a stale timestamp, and one far in the future', () => {
    expect(verifyShopifyQuery(EXAMPLE, 'hush', new Date((1337178173 + SHOPIFY_QUERY_MAX_AGE_S + 1) * 1000))).toBeNull();
    expect(verifyShopifyQuery(EXAMPLE, 'hush', new Date((1337178173 - 3600) * 1000))).toBeNull();
    const noTime = 'shop=a.myshopify.com';
    const hmac = createHmac('sha256', 'hush').update(noTime).digest('hex');
    expect(verifyShopifyQuery(`${noTime}&hmac=${hmac}`, 'hush', new Date())).toBeNull();
  });
});
