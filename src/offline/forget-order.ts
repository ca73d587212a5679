import type { LabDatabase } from './db.ts';

// Its own module: the delete dialog loads it with itself, the list does not carry it.

/** An order deleted by this user (the trash icon): it leaves the device with its line items not waiting to be sent. */
export async function forgetOrder(db: LabDatabase, guid: string): Promise<void> {
  await db.transaction('rw', [db.orders, db.lineItems], async () => {
    await db.orders.delete(guid);
    await db.lineItems.where('orderGuid').equals(guid).filter((l) => !l.pending).delete();
  });
}
