import { describe, expect, it } from 'vitest';
import { cancelConfirmText, cancelRefund, cancellation, colorCorrectionLabel, reorderName, ORDER_NAME_MAX } from '../../src/client-rules/order-actions-photographer.ts';

describe("the photographer's order actions", () => {
  const paidAt = '2026-11-23T10:00:00.000Z';
  const until = '2026-11-23T10:30:00.000Z';
  const at = (iso: string) => new Date(iso);

  it('offers CANCEL ORDER while paid and inside the window, and says why not after', () => {
    expect(cancellation({ status: 'paid', paid_at: paidAt, cancel_until: until }, at('2026-11-23T10:29:59Z'))).toEqual({ kind: 'offer', until: at(until) });
    expect(cancellation({ status: 'paid', paid_at: paidAt, cancel_until: until }, at(until))).toEqual({
      kind: 'closed',
      reason: 'This order can no longer be cancelled: the 30 minutes after payment have passed.',
    });
    for (const status of ['printing', 'framing', 'shipped']) {
      expect(cancellation({ status, paid_at: paidAt, cancel_until: until }, at('2026-11-23T10:01:00Z'))).toEqual({
        kind: 'closed',
        reason: 'This order can no longer be cancelled: the lab has started it.',
      });
    }
    expect(cancellation({ status: 'open', paid_at: null, cancel_until: null }, at(paidAt)).kind).toBe('none');
    expect(cancellation({ status: 'cancelled', paid_at: paidAt, cancel_until: until }, at(paidAt)).kind).toBe('none');
  });

  it('says what comes back: the charge less earlier refunds, and the credit spent', () => {
    expect(cancelRefund({ total: 42.5, refund_amount: 2.5, credit_applied: 3 })).toEqual({ cardCents: 4000, creditCents: 300 });
    expect(cancelConfirmText({ order_name: 'Smith wedding', total: 42.5, credit_applied: 3 })).toBe(
      'Smith wedding will not be printed. $42.50 is refunded to the card you paid with (it shows on your statement within 5 to 10 business days), and $3.00 of credit returns to your account. This cannot be undone.',
    );
    expect(cancelConfirmText({ order_name: 'Free', total: 0, credit_applied: 0 })).toBe('Free will not be printed. Nothing was charged. This cannot be undone.');
  });

  it("suggests the reorder's name within the limit, never '(reorder) (reorder)'", () => {
    expect(reorderName('Smith wedding')).toBe('Smith wedding (reorder)');
    expect(reorderName('Smith wedding (reorder)')).toBe('Smith wedding (reorder)');
    expect(reorderName('x'.repeat(200))).toHaveLength(ORDER_NAME_MAX);
  });

  it('names the colour choice, the lab correcting by default', () => {
    expect(colorCorrectionLabel('as_is')).toBe('Print as is');
    expect(colorCorrectionLabel('lab')).toBe('Lab corrects colour');
    expect(colorCorrectionLabel(undefined)).toBe('Lab corrects colour');
  });
});

describe('the history of the choice', () => {
  it('names the colour choices, not their stored values', async () => {
    const { eventText } = await import('../../src/client-rules/order-detail.ts');
    expect(eventText({ kind: 'color_correction', from: 'lab', to: 'as_is' })).toBe('Colour correction: Lab corrects colour → Print as is');
    expect(eventText({ kind: 'referral_clawback', detail: 'referral credit taken back: $1.00' })).toBe('Referral credit: referral credit taken back: $1.00');
  });
});
