/** Order statuses (orders.md §4), apart from order-detail.ts so the orders list's status dropdown carries nothing else. */

/** In the lab's order of work; admins may set any of them. */
export const ORDER_STATUSES = ['open', 'paid', 'printing', 'framing', 'shipped', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const isOrderStatus = (s: string): s is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(s);
