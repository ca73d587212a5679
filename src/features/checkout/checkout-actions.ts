import type { Profile } from '../../api/account.ts';
import type { CheckoutOrder } from '../../api/checkout.ts';

/**
 * What a section of checkout details may do: run a call answering the order or the profile. A
 * failure is toasted with `failure` before the lab's words, or handed to a function that words it
 * where it belongs (the discount and credit boxes). Answers whether the call succeeded.
 */
export interface CheckoutActions {
  orderGuid: string;
  change(call: () => Promise<CheckoutOrder>, failure: string | ((err: unknown) => void)): Promise<boolean>;
  profileChange(call: () => Promise<Profile>, failure: string): Promise<boolean>;
}
