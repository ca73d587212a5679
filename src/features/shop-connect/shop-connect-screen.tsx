import { useState, type FormEvent } from 'react';
import { useSearchParams } from '../../ui/router.tsx';
import { connectShop } from '../../api/account.ts';
import { errorLines } from '../../api/errors.ts';
import { ErrorLines } from '../../ui/error-lines.tsx';

/** The marketing site, which this page links back to (docs/accounts.md §1). */
export const MARKETING_SITE_URL: string = import.meta.env.VITE_MARKETING_URL ?? 'https://www.example.com';

/** /shopify-connect: a shop links itself to a photographer's lab account with their code. */
export function ShopConnectScreen() {
  const [params] = useSearchParams();
  const [shop, setShop] = useState(params.get('shop') ?? '');
  const [code, setCode] = useState('');
  const [done, setDone] = useState<{ shop: string; status: 'connected' | 'pending' } | null>(null);
  const [failure, setFailure] = useState<string[] | null>(null);
  const [busy, setBusy] = useState(false);

  const onSubmit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setFailure(null);
    try {
      // The whole query as Shopify opened the page: its signature covers every parameter.
      setDone(await connectShop(code, shop, params.toString()));
    } catch (err) {
      setFailure(errorLines(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <main className="auth-page">
      <form className="auth-card" onSubmit={(e) => void onSubmit(e)}>
        <h1>CONNECT YOUR SHOP</h1>
        {done?.status === 'connected' ? (
          <p className="notice" role="status">
            Your shop {done.shop} is connected to your lab account.
          </p>
        ) : done ? (
          <p className="notice" role="status">
            Your shop {done.shop} is waiting for your confirmation. Sign in to the lab and press CONFIRM under SHOP CONNECTION on your account page.
          </p>
        ) : (
          <>
            <label>
              Shop address
              <input placeholder="your-shop.myshopify.com" value={shop} onChange={(e) => setShop(e.target.value)} />
            </label>
            <label>
              Connection code
              <input value={code} autoCapitalize="characters" onChange={(e) => setCode(e.target.value)} />
            </label>
            <p className="muted">If you do not have a code, you can find it on your account profile page.</p>
            <ErrorLines lines={failure ?? []} />
            <button type="submit" className="button primary" disabled={!code.trim() || !shop.trim() || busy}>
              CONNECT
            </button>
          </>
        )}
        <p className="auth-links">
          <a href={MARKETING_SITE_URL}>BACK TO THE LAB&apos;S WEBSITE</a>
        </p>
      </form>
    </main>
  );
}
