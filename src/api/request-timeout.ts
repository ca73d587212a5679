/** The time-out of every call (docs/accounts.md §7): 20 minutes, for slow links and big orders. */
export const REQUEST_TIMEOUT_MS = 1_200_000;
