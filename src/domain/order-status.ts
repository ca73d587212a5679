/** Order statuses (docs/orders.md §4), apart from order-detail.ts so the orders list's status dropdown carries nothing else. */

/** In the lab's order of work; admins may set any of them. */
export const ORDER_STATUSES = ['open', 'paid', 'printing', 'framing', 'shipped', 'cancelled'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

export const isOrderStatus = (s: string): s is OrderStatus => (ORDER_STATUSES as readonly string[]).includes(s);

/** The lab's work on an order: an order nobody paid for goes there only with the admin's reason on record. */
const WORK_STATUSES: readonly OrderStatus[] = ['printing', 'framing', 'shipped'];
export const needsReasonWhenUnpaid = (status: string): boolean => (WORK_STATUSES as readonly string[]).includes(status);
// A reason is a line in the history, not a document.
export const STATUS_REASON_MAX = 300;
export const unpaidNeedsReason = (status: string) =>
  `This order is not paid yet. To move it to ${status} anyway, give the reason (for example "paid by other means" or "test print"); it is recorded in the history.`;
