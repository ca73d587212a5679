import { eq } from 'drizzle-orm';
import type { Db, Tx } from '../db/client.ts';
import { orderClientAddresses } from '../db/schema.ts';

/**
 * The photographer's client a drop-ship order goes to (drop-ship-service.ts), read for the
 * answers, the receipt and the lab's papers.
 */

export type ClientAddressRow = typeof orderClientAddresses.$inferSelect;

/** The client the order ships to, or null when it ships to the studio. */
export async function clientAddressOf(db: Db | Tx, orderId: number): Promise<ClientAddressRow | null> {
  const [row] = await db.select().from(orderClientAddresses).where(eq(orderClientAddresses.labOrderId, orderId));
  return row ?? null;
}

/** The client's address as the wire carries it (drop_ship_address). */
export const clientAddressAnswer = (row: ClientAddressRow) => ({
  recipient: row.recipient,
  street: row.street,
  street_2: row.street2,
  city: row.city,
  state_province: row.state,
  zip: row.zip,
});

/** The client's address as one line, for the packing list and the admin's order detail. */
export const clientAddressLine = (row: ClientAddressRow) => [row.recipient, row.street, row.street2, `${row.city}, ${row.state} ${row.zip}`].filter(Boolean).join(', ');

