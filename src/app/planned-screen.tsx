/** A screen whose issue has not landed yet: the route resolves and says what it will hold. */
export function PlannedScreen({ title, purpose }: { title: string; purpose: string }) {
  return (
    <section className="planned">
      <h1>{title}</h1>
      <p>{purpose}</p>
      <p className="muted">This screen is not available yet.</p>
    </section>
  );
}
