import { useState } from 'react';
import { confirmShopConnection, declineShopConnection, getProfile, type Profile } from '../../api/account.ts';
import { errorLines } from '../../api/errors.ts';
import { toast } from '../../ui/toasts/toast-store.ts';

/**
 * SHOP CONNECTION: the code a shop enters on /shopify-connect, the connected shops, and the
 * requests waiting for the photographer to CONFIRM (a request nobody confirms does nothing).
 */
export function ShopConnectionSection({ profile, onSaved }: { profile: Profile; onSaved: (p: Profile) => void }) {
  const [busy, setBusy] = useState(false);
  const { code, shops, pending } = profile.shop_connection;

  const act = async (action: () => Promise<unknown>, done: string) => {
    setBusy(true);
    try {
      await action();
      onSaved(await getProfile());
      toast.success(done);
    } catch (err) {
      toast.error(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="account-section" aria-labelledby="shop">
      <h2 id="shop">SHOP CONNECTION</h2>
      <p>
        Your connection code: <strong>{code}</strong>
      </p>
      <p className="muted">{shops.length ? `Connected shops: ${shops.join(', ')}` : 'Enter this code when your shop asks to connect to the lab.'}</p>
      {pending.length > 0 && (
        <ul className="pending-shops" aria-label="Shops waiting for your confirmation">
          {pending.map((p) => (
            <li key={p.id}>
              <span>{p.shop} asked to connect to your account.</span>{' '}
              <button type="button" className="button primary" disabled={busy} aria-label={`CONFIRM ${p.shop}`} onClick={() => void act(() => confirmShopConnection(p.id), `Your shop ${p.shop} is connected.`)}>
                CONFIRM
              </button>{' '}
              <button type="button" className="button" disabled={busy} aria-label={`DECLINE ${p.shop}`} onClick={() => void act(() => declineShopConnection(p.id), `The request from ${p.shop} was declined.`)}>
                DECLINE
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
