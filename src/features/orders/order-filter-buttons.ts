/** The admin's filter buttons (apart from order-filters.ts: only admins download them). */
import type { OrderFilter } from '../../domain/order-filters.ts';

/** The buttons' words and colours (docs/orders.md §2 for the words, §9 for the colours). */
export const FILTER_BUTTONS: { filter: OrderFilter; label: string; colour: string }[] = [
  { filter: 'prints', label: 'PRINTS', colour: 'blue' },
  { filter: 'mat', label: 'MATTING', colour: 'orange' },
  { filter: 'mount', label: 'MOUNTING', colour: 'purple' },
  { filter: 'frame', label: 'FRAMING', colour: 'teal' },
  { filter: 'canvas', label: 'CANVAS', colour: 'green' },
  { filter: 'api_order', label: 'API ORDER', colour: 'red' },
  { filter: 'test_print', label: 'TEST PRINTS', colour: 'magenta' },
  { filter: 'boutique', label: 'BOUTIQUE', colour: 'pink' },
  { filter: 'hide_open', label: 'HIDE OPEN', colour: 'grey' },
  { filter: 'hide_mine', label: 'HIDE MY ORDERS', colour: 'grey' },
];

/** RESET's colour (docs/orders.md §9). */
export const RESET_COLOUR = 'grey';
