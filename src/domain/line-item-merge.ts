import type { LineItemPayload } from './line-item-payload.ts';

/**
 * The merge rule (docs/orders.md §5): adding a photo that the cart already holds with the same print
 * size and finishing service raises that line item's quantity by 1 and posts nothing new. It is a
 * quantity update, not an addition of the new quantity.
 */

/** What makes two line items the same product of the same photo. Border and details do not count. */
export interface ProductKey {
  photoGuid: string;
  printSizeGuid: string;
  finishingServiceGuid: string | null;
}

export const sameProduct = (a: ProductKey, b: ProductKey): boolean =>
  a.photoGuid === b.photoGuid && a.printSizeGuid === b.printSizeGuid && a.finishingServiceGuid === b.finishingServiceGuid;

export const payloadKey = (p: LineItemPayload): ProductKey => ({
  photoGuid: p.source_photograph_guid,
  printSizeGuid: p.print_size,
  finishingServiceGuid: p.finishing_service,
});

export interface CartLine extends ProductKey {
  guid: string;
  quantity: number;
}

export interface CartAddPlan {
  /** New line items to post. */
  post: LineItemPayload[];
  /** Existing line items whose quantity rises: the new quantity for each, once per line item. */
  quantityUpdates: { guid: string; quantity: number }[];
}

/** One string per product: a Map lookup instead of a scan of the cart for each payload. */
const productId = (k: ProductKey): string => JSON.stringify([k.photoGuid, k.printSizeGuid, k.finishingServiceGuid]);

/**
 * Splits an add into new line items and quantity updates. Each payload that matches a line item
 * in the cart raises it by 1 (two such payloads by 2); one that matches a payload earlier in the
 * same add raises that payload's quantity by 1. The first match counts, as before; the lookups
 * are by key, so an add of 1,000 photos is 1,000 lookups, not half a million comparisons.
 */
export function planCartAdd(cart: readonly CartLine[], payloads: readonly LineItemPayload[]): CartAddPlan {
  const inCart = new Map<string, CartLine>();
  for (const line of cart) {
    const id = productId(line);
    if (!inCart.has(id)) inCart.set(id, line);
  }
  const raised = new Map<string, number>();
  const post: LineItemPayload[] = [];
  const posted = new Map<string, number>();
  for (const payload of payloads) {
    const id = productId(payloadKey(payload));
    const line = inCart.get(id);
    if (line) {
      raised.set(line.guid, (raised.get(line.guid) ?? line.quantity) + 1);
      continue;
    }
    const earlier = posted.get(id);
    const found = earlier === undefined ? undefined : post[earlier];
    if (earlier !== undefined && found) post[earlier] = { ...found, quantity: found.quantity + 1 };
    else {
      posted.set(id, post.length);
      post.push(payload);
    }
  }
  return { post, quantityUpdates: [...raised].map(([guid, quantity]) => ({ guid, quantity })) };
}
