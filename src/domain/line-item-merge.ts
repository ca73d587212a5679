import type { LineItemPayload } from './line-item-payload.ts';

/**
 * The merge rule (orders.md §5): adding a photo that the cart already holds with the same print
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

/**
 * Splits an add into new line items and quantity updates. Each payload that matches a line item
 * in the cart raises it by 1 (two such payloads by 2); one that matches a payload earlier in the
 * same add raises that payload's quantity by 1.
 */
export function planCartAdd(cart: readonly CartLine[], payloads: readonly LineItemPayload[]): CartAddPlan {
  const raised = new Map<string, number>();
  const post: LineItemPayload[] = [];
  for (const payload of payloads) {
    const key = payloadKey(payload);
    const line = cart.find((l) => sameProduct(l, key));
    if (line) {
      raised.set(line.guid, (raised.get(line.guid) ?? line.quantity) + 1);
      continue;
    }
    const earlier = post.findIndex((p) => sameProduct(payloadKey(p), key));
    const found = post[earlier];
    if (found) post[earlier] = { ...found, quantity: found.quantity + 1 };
    else post.push(payload);
  }
  return { post, quantityUpdates: [...raised].map(([guid, quantity]) => ({ guid, quantity })) };
}
