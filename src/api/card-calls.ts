import { getPaymentsConfig, mintSandboxToken } from './cards.ts';
import { ApiError, NO_RESPONSE_MESSAGE, errorLines } from './errors.ts';

/**
 * What the card field (src/ui/card-field/card-entry.tsx) needs from the lab, handed to it by the
 * screens that show it: src/ui makes no calls of its own.
 */
export const cardCalls = {
  paymentsConfig: getPaymentsConfig,
  mintSandboxToken,
  errorLines,
  /** The card provider's own message, shown under the card field. */
  providerMessage: (err: unknown): string =>
    err instanceof ApiError ? (err.kind === 'server' ? err.message : NO_RESPONSE_MESSAGE) : err instanceof Error ? err.message : String(err),
};
