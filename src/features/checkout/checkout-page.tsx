import type { ReactNode } from 'react';

/** The checkout screens' frame: the order's name over the title, and 'loading...' while a change is on its way. */
export function CheckoutPage({ name, title, updating = false, actions, children }: { name: string | null; title: string; updating?: boolean; actions?: ReactNode; children: ReactNode }) {
  return (
    <section className="checkout-page">
      <header className="checkout-header">
        <div>
          <p className="muted">{name || 'Lab order'}</p>
          <h1>{title}</h1>
        </div>
        {actions}
      </header>
      {updating ? (
        <p role="status" className="checkout-updating">
          loading...
        </p>
      ) : null}
      {children}
    </section>
  );
}
