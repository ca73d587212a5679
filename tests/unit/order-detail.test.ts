import { describe, expect, it } from 'vitest';
import { adminAddressForm, adminAddressPayload, adminAddressProblems, canContinueOrder, eventText, lineFinishingText, refundAmount, refundDollars, trackingUrlProblem } from '../../src/client-rules/order-detail.ts';

describe('order detail rules', () => {
  it('offers CONTINUE ORDER only while the order is open', () => {
    expect(canContinueOrder('open')).toBe(true);
    for (const s of ['paid', 'printing', 'framing', 'shipped', 'cancelled']) expect(canContinueOrder(s)).toBe(false);
  });

  it('takes http(s) tracking links up to 500 characters, and an empty one to clear it', () => {
    expect(trackingUrlProblem('')).toBeNull();
    expect(trackingUrlProblem(' https://track.example/1Z999 ')).toBeNull();
    expect(trackingUrlProblem('http://track.example/x')).toBeNull();
    expect(trackingUrlProblem('track.example/1Z')).toMatch(/full tracking link/);
    expect(trackingUrlProblem('javascript:alert(1)')).toMatch(/full tracking link/);
    expect(trackingUrlProblem(`https://t.example/${'a'.repeat(500)}`)).toMatch(/at most 500/);
  });

  it('takes a refund of dollars with two decimals, more than 0 and at most what is left', () => {
    expect(refundAmount('12.50', 5000)).toEqual({ cents: 1250 });
    expect(refundAmount('$7', 5000)).toEqual({ cents: 700 });
    expect(refundAmount('50.00', 5000)).toEqual({ cents: 5000 });
    expect(refundAmount('50.01', 5000)).toEqual({ problem: 'The refund is more than what is left to refund ($50.00).' });
    expect(refundAmount('0', 5000)).toEqual({ problem: 'A refund must be more than $0.00.' });
    expect(refundAmount('1.234', 5000)).toHaveProperty('problem');
    expect(refundAmount('-3', 5000)).toHaveProperty('problem');
    expect(refundAmount('abc', 5000)).toHaveProperty('problem');
    expect(refundDollars(1250)).toBe(12.5);
    expect(refundDollars(1)).toBe(0.01);
  });

  it('writes a line item finishing as one line', () => {
    expect(lineFinishingText(null)).toBe('None');
    const mat = {
      finishing_category: 'four_ply_mat' as const,
      finishing_service: '11x14',
      formatted_frame_profile: null,
      formatted_detail_one: 'White',
      formatted_detail_two: null,
      formatted_detail_three: null,
    };
    expect(lineFinishingText(mat)).toBe('4-PLY MAT: 11x14 · White');
    // The wire's short code '-.75' reads as the width the frame's name uses.
    const frame = { ...mat, finishing_category: 'contemporary_frame' as const, finishing_service: 'Black Maple 3/4"', formatted_frame_profile: '-.75', formatted_detail_two: 'ACRYLIC' };
    expect(lineFinishingText(frame)).toBe('CONTEMPORARY FRAME: Black Maple 3/4" · 3/4" profile · White · ACRYLIC');
  });

  it('writes an event of the order history', () => {
    expect(eventText({ kind: 'status', from: 'paid', to: 'shipped' })).toBe('Status: paid → shipped');
    expect(eventText({ kind: 'refund', detail: '$12.50' })).toBe('Refund: $12.50');
    expect(eventText({ kind: 'something_new' })).toBe('something new');
    expect(eventText({ kind: 'vendor_send', to: 'sent', detail: 'Received by the vendor' })).toBe('Received by the vendor');
    expect(eventText({ kind: 'vendor_send_failed', to: 'failed', detail: 'Vendor send failed after 9 tries: the vendor answered HTTP 503' })).toBe(
      'Vendor send failed after 9 tries: the vendor answered HTTP 503',
    );
    expect(eventText({ kind: 'shipping_address', from: null, to: '1 Main St, Nashville, TN 37201' })).toBe('Shipping address: — → 1 Main St, Nashville, TN 37201');
  });

  it('checks the admin’s address form in the lab’s words, and sends it for the order only', () => {
    const empty = adminAddressForm(null);
    expect(adminAddressProblems(empty)).toEqual({
      recipient: 'Enter the recipient’s name.',
      street: 'Enter the street address.',
      city: 'Enter the city.',
      state: 'Enter the state.',
      zip: 'The zip code is 5 digits.',
    });
    const filled = adminAddressForm({ recipient: 'Dorothea Lange', street: '1 Main St', street_2: null, city: 'Nashville', state_province: 'TN', zip: '37201' });
    expect(adminAddressProblems(filled)).toEqual({});
    expect(adminAddressProblems({ ...filled, zip: '3720' })).toEqual({ zip: 'The zip code is 5 digits.' });
    expect(adminAddressPayload({ ...filled, street: ' 2 Oak Ave ' }, 'o-1')).toEqual({
      recipient_name: 'Dorothea Lange',
      street_address: '2 Oak Ave',
      city: 'Nashville',
      state: 'TN',
      zip: '37201',
      lab_order_id: 'o-1',
      update_address_on_order: true,
    });
  });
});
