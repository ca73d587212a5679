import { describe, expect, it } from 'vitest';
import { orderMinimumMessage, orderMinimumShortfall } from '../../src/domain/order-minimum.ts';

describe('the order minimum', () => {
  it("says what is missing in the lab's words", () => {
    expect(orderMinimumMessage(1380, 1800)).toBe("Add $4.20 to reach the lab's $18 minimum");
    expect(orderMinimumMessage(0, 500)).toBe("Add $5.00 to reach the lab's $5 minimum");
    expect(orderMinimumMessage(1000, 1250)).toBe("Add $2.50 to reach the lab's $12.50 minimum");
  });

  it('is met at the minimum and above it', () => {
    expect(orderMinimumMessage(1800, 1800)).toBeNull();
    expect(orderMinimumMessage(1801, 1800)).toBeNull();
    expect(orderMinimumShortfall(1799, 1800)).toBe(1);
  });

  it('is no rule at 0', () => {
    expect(orderMinimumShortfall(0, 0)).toBe(0);
    expect(orderMinimumMessage(0, 0)).toBeNull();
  });
});
