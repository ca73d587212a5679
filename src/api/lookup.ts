/**
 * The answer of a lookup call (does this email, code or token exist?): true when the call
 * succeeded, false when the lab answered 404; any other failure is thrown on.
 */
export async function lookupFound(lookup: Promise<unknown>): Promise<boolean> {
  try {
    await lookup;
    return true;
  } catch (err) {
    if ((err as { status?: number }).status === 404) return false;
    throw err;
  }
}
