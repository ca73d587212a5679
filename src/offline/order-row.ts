/** The two parts of an order row (db.ts OrderRow), without Dexie: the service worker uses these too. */
import type { ListedPart, LocalOrder, OrderRow } from './db.ts';

/** Whether a row holds the builder's part (the lab's figures of the whole order), not only the list's. */
export const isBuilderOrder = (row: OrderRow | undefined): row is LocalOrder & ListedPart => row !== undefined && typeof row.totalCents === 'number';

/** The list's part of a row, to carry over when the builder writes its part. */
export const listedPart = (row: OrderRow | undefined): ListedPart =>
  row?.listed && row.listAt !== undefined && row.listId !== undefined ? { listed: row.listed, listAt: row.listAt, listId: row.listId } : {};
