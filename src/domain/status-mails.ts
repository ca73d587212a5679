/**
 * The mails a photographer gets as an order moves (issue 34), each of which they may turn off on
 * /account. The server checks the choice when it queues the mail; the account page names them.
 */
export const STATUS_MAIL_STEPS = ['received', 'printing', 'shipped', 'delayed', 'cancelled', 'refunded'] as const;
export type StatusMailStep = (typeof STATUS_MAIL_STEPS)[number];

export const STATUS_MAIL_LABELS: Record<StatusMailStep, string> = {
  received: 'Order received (the receipt)',
  printing: 'Printing started',
  shipped: 'Shipped, with the tracking link',
  delayed: 'Delayed, with the new ship date',
  cancelled: 'Order cancelled',
  refunded: 'Refund made',
};
