import { useState } from 'react';
import type { Profile } from '../../api/account.ts';
import { cardCalls } from '../../api/card-calls.ts';
import { createCard, makePrimaryCard, removeCard } from '../../api/cards.ts';
import { ApiError, NO_RESPONSE_MESSAGE, errorLines } from '../../api/errors.ts';
import { CardEntry } from '../../ui/card-field/card-entry.tsx';
import { toast } from '../../ui/toasts/toast-store.ts';
import { PrimaryChooser } from './primary-chooser.tsx';

// 'Card Saved' shows for 3 seconds (docs/accounts.md §9).
const CARD_SAVED_MS = 3_000;

const saveErrorText = (err: unknown) =>
  err instanceof ApiError && err.kind === 'server' ? `Could not save card. Server error: ${[err.message, ...err.moreInfo.filter((m) => m !== err.message)].join(' ')}` : NO_RESPONSE_MESSAGE;

/** CREDIT CARDS: saved cards, the primary card, removal, and the provider's card field (src/ui/card-field). */
export function CardsSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [busy, setBusy] = useState(false);

  const run = async (action: () => Promise<Profile>) => {
    setBusy(true);
    try {
      onSaved(await action());
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  const saveCard = async (tokenId: string) => {
    onSaved(await createCard(tokenId));
    toast.success('Card Saved', { durationMs: CARD_SAVED_MS });
  };

  const removeAll = () =>
    void run(async () => {
      let latest = profile;
      for (const c of profile.cards.data) latest = await removeCard(c.id);
      return latest;
    });

  return (
    <section className="account-section" aria-labelledby="cards">
      <h2 id="cards">CREDIT CARDS</h2>
      {profile.cards.data.length ? (
        <PrimaryChooser
          legend="Primary card"
          name="primary-card"
          items={profile.cards.data.map((c) => ({ id: c.id, label: c.masked_card }))}
          primary={profile.default_card}
          busy={busy}
          onChoose={(id) => void run(() => makePrimaryCard(id))}
          onRemove={(id) => void run(() => removeCard(id))}
          removeAllLabel="REMOVE ALL CARDS"
          onRemoveAll={removeAll}
        />
      ) : (
        <p className="muted">No saved cards yet.</p>
      )}
      <CardEntry calls={cardCalls} submitLabel="SAVE CARD" disabled={busy} onToken={saveCard} saveErrorText={saveErrorText} />
    </section>
  );
}
