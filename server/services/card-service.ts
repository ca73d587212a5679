import { and, eq, sql } from 'drizzle-orm';
import { CardError } from '../adapters/payments/payments.ts';
import { cards, users } from '../db/schema.ts';
import type { ServerDeps } from '../deps.ts';
import { HttpError, notFound, unauthorized } from '../http/errors.ts';
import { profile } from './account-service.ts';
import type { Actor } from './auth-service.ts';

/** CREDIT CARDS (accounts.md §2, §7): saved through the payment provider; we keep brand and last 4. */
export async function createCard(deps: ServerDeps, actor: Actor | null, input: { token_id: string }) {
  if (!actor) throw unauthorized();
  let saved;
  try {
    saved = await deps.payments.saveCard({ guid: actor.user.guid, email: actor.user.email, customerId: actor.user.stripeCustomerId }, input.token_id);
  } catch (err) {
    if (err instanceof CardError) throw new HttpError(402, 'CardError', err.message, { moreInfo: [err.message] });
    throw err;
  }
  const [row] = await deps.db
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
    })
    .returning({ id: cards.id });
  if (saved.customerId && saved.customerId !== actor.user.stripeCustomerId) {
    await deps.db.update(users).set({ stripeCustomerId: saved.customerId }).where(eq(users.guid, actor.user.guid));
  }
  // The first card a photographer saves is their primary card.
  if (row) await deps.db.update(users).set({ defaultCardId: row.id }).where(and(eq(users.guid, actor.user.guid), sql`${users.defaultCardId} is null`));
  return profile(deps, actor);
}

async function ownCard(deps: ServerDeps, actor: Actor, id: string) {
  const [row] = await deps.db.select().from(cards).where(and(eq(cards.id, id), eq(cards.userGuid, actor.user.guid)));
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
