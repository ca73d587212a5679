import { describe, expect, it } from 'vitest';
import { ACCOUNT_TOAST_MS, TOAST_MS, toastDurationFor } from '../../src/ui/toasts/toast-store.ts';

describe('toast durations', () => {
  it('are 10 s on most screens and 5 s on account screens', () => {
    expect(TOAST_MS).toBe(10_000);
    expect(ACCOUNT_TOAST_MS).toBe(5_000);
    expect(toastDurationFor('/lab-orders')).toBe(TOAST_MS);
    expect(toastDurationFor('/login')).toBe(TOAST_MS);
    expect(toastDurationFor('/account')).toBe(ACCOUNT_TOAST_MS);
    expect(toastDurationFor('/accounting')).toBe(TOAST_MS);
  });
});
