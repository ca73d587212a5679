/**
 * PostgreSQL's unique_violation (23505), from PostgreSQL or PGlite, through drizzle's wrapper:
 * the name of the unique index the write broke, or null for any other error. A check before a
 * write cannot see a write racing it; the index decides, and this tells which rule it held to.
 */
export function brokenUniqueIndex(err: unknown): string | null {
  const cause = (err as { cause?: unknown }).cause ?? err;
  const pg = cause as { code?: unknown; constraint?: unknown; message?: unknown };
  if (pg.code !== '23505') return null;
  if (typeof pg.constraint === 'string') return pg.constraint;
  // PGlite's error names the index in its message only.
  const named = typeof pg.message === 'string' ? /unique constraint "([^"]+)"/.exec(pg.message) : null;
  return named?.[1] ?? '';
}

/** Runs a write; a race lost to a unique index in `refusals` becomes that index's refusal (the answer a single request gets). */
export async function refusingDuplicates<T>(write: () => Promise<T>, refusals: Record<string, () => Error>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    const index = brokenUniqueIndex(err);
    const refusal = index === null ? undefined : refusals[index];
    if (refusal) throw refusal();
    throw err;
  }
}
