import { and, eq, sql } from 'drizzle-orm';
import { CardError } from '../adapters/payments/payments.ts';
import { cards, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound, unauthorized } from '../http/errors.ts';
import { profile } from './account-service.ts';
import type { Actor } from './auth-service.ts';
import { setOnOwnOpenOrder } from './order-changes.ts';

/**
 * CREDIT CARDS (docs/accounts.md §2, §7): saved through the payment provider; we keep brand and last 4.
 * From checkout (lab_order_id), the card is saved unkept and selected for that open order of the
 * caller: checkout keeps it in the list only if SAVE CARD FOR FUTURE USE is ticked.
 */
export async function createCard(deps: ServerDeps, actor: Actor | null, input: { token_id: string; lab_order_id?: string | undefined }) {
  if (!actor) throw unauthorized();
  const orderGuid = input.lab_order_id;
  // The order is checked before the provider is asked, so a refused order saves no card.
  if (orderGuid) await deps.db.transaction((tx) => setOnOwnOpenOrder(tx, actor, orderGuid, {}));
  let saved;
  try {
    saved = await deps.payments.saveCard({ guid: actor.user.guid, email: actor.user.email, customerId: actor.user.stripeCustomerId }, input.token_id);
  } catch (err) {
    if (err instanceof CardError) throw new HttpError(402, 'CardError', err.message, { moreInfo: [err.message] });
    throw err;
  }
  await deps.db.transaction(async (tx) => {
    const [row] = await tx
      .insert(cards)
      .values({
        userGuid: actor.user.guid,
        provider: deps.payments.name,
        providerCardId: saved.providerCardId,
        brand: saved.brand,
        last4: saved.last4,
        expMonth: saved.expMonth,
        expYear: saved.expYear,
        sandboxBehaviour: saved.sandboxBehaviour ?? null,
        kept: !orderGuid,
      })
      .returning({ id: cards.id });
    if (!row) throw new Error('card not saved');
    if (saved.customerId && saved.customerId !== actor.user.stripeCustomerId) {
      await tx.update(users).set({ stripeCustomerId: saved.customerId }).where(eq(users.guid, actor.user.guid));
    }
    if (orderGuid) {
      await setOnOwnOpenOrder(tx, actor, orderGuid, { selectedCardId: row.id, usedSavedCard: false });
    } else {
      // The first card a photographer saves is their primary card.
      await tx.update(users).set({ defaultCardId: row.id }).where(and(eq(users.guid, actor.user.guid), sql`${users.defaultCardId} is null`));
    }
  });
  return profile(deps, actor);
}

/** A card of the caller's list: kept cards only (a card typed at checkout and not kept is no one's to choose). */
async function ownCard(deps: ServerDeps, actor: Actor, id: string) {
  const [row] = await deps.db.select().from(cards).where(and(eq(cards.id, id), eq(cards.userGuid, actor.user.guid), eq(cards.kept, true)));
  if (!row) throw notFound('This card does not exist.');
  return row;
}

/** make_primary: a card id, or '' to clear the choice. */
export async function setDefaultCard(deps: ServerDeps, actor: Actor | null, makePrimary: string) {
  if (!actor) throw unauthorized();
  if (makePrimary) await ownCard(deps, actor, makePrimary);
  await deps.db.update(users).set({ defaultCardId: makePrimary || null }).where(eq(users.guid, actor.user.guid));
  return profile(deps, actor);
}

export async function removeCard(deps: ServerDeps, actor: Actor | null, id: string) {
  if (!actor) throw unauthorized();
  await ownCard(deps, actor, id);
  await deps.db.transaction(async (tx) => {
    await tx.delete(cards).where(eq(cards.id, id));
    await tx.update(users).set({ defaultCardId: null }).where(and(eq(users.guid, actor.user.guid), eq(users.defaultCardId, id)));
  });
  return profile(deps, actor);
}
