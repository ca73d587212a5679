/**
 * The shipping speeds a studio chooses at checkout (issue 34), the names the spec gives
 * `shipping_method` (docs/orders.md §9: overnight and two_day are the rush methods, highlighted
 * red). Their prices live in the lab's catalogue (`shipping_speeds` in the catalogue file); what
 * is fixed here is what a carrier service is: its code on the wire, its words on screen, and how
 * many business days it spends in transit once the lab has shipped.
 *
 * Local pickup is not a speed: it is the order's own `local_pickup` flag and ships nothing.
 */

import type { Cents } from './money.ts';

export const SHIPPING_SPEEDS = ['standard', 'two_day', 'overnight'] as const;
export type ShippingSpeed = (typeof SHIPPING_SPEEDS)[number];

export const isShippingSpeed = (value: unknown): value is ShippingSpeed => typeof value === 'string' && (SHIPPING_SPEEDS as readonly string[]).includes(value);

/** The words a screen, the receipt and the packing list show for each speed. */
export const SHIPPING_SPEED_NAMES: Record<ShippingSpeed, string> = {
  standard: 'STANDARD',
  two_day: 'TWO-DAY',
  overnight: 'OVERNIGHT',
};

/**
 * Business days in transit after the lab ships, as [earliest, latest]. Ground services in the
 * contiguous US take 1–5 business days by distance; the air services are guaranteed, so their
 * range is one day wide.
 */
export const TRANSIT_BUSINESS_DAYS: Record<ShippingSpeed, readonly [number, number]> = {
  standard: [1, 5],
  two_day: [2, 2],
  overnight: [1, 1],
};

/** The speed an order has when none was chosen: the spec's flat-rate shipping. */
export const DEFAULT_SHIPPING_SPEED: ShippingSpeed = 'standard';

/**
 * The price of each speed when the lab's catalogue file names none. Standard is the spec's flat
 * rate (docs/orders.md §9: $10 an order); two-day and overnight are what pro labs ask for a
 * parcel of prints sent by air within the contiguous US.
 */
export const DEFAULT_SHIPPING_SPEED_CENTS: Readonly<Record<ShippingSpeed, Cents>> = { standard: 1000, two_day: 2400, overnight: 3900 };

/** What the wire calls the order's shipping: its speed, or local pickup (which ships nothing). */
export const shippingMethod = (localPickup: boolean, speed: ShippingSpeed): ShippingSpeed | 'local_pickup' => (localPickup ? 'local_pickup' : speed);
