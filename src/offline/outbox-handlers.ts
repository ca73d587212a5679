/**
 * The outbox's one map of handlers: a change's name decides its payload's type and how it is
 * sent (in the manner of Actual's `send<K>`). Adding a kind of change means adding one entry here;
 * the compiler then asks for everything else. The drain (outbox-drain.ts) reads rows through
 * `readEntry`, so a row of an unknown name or shape is never sent as something it is not.
 */
import type { FullOrder, FullOrderAttributes, LineItemCalls } from '../api/line-item-calls.ts';
import type { LineItemPayload } from '../domain/line-item-payload.ts';
import type { ServerLineItem } from '../contract/line-items.ts';

export interface OutboxPayloads {
  /** One POST of 1..30 new line items. */
  addLineItems: { orderGuid: string; lineItems: LineItemPayload[] };
  updateLineItem: { orderGuid: string; lineItem: LineItemPayload };
  updateQuantity: { orderGuid: string; lineItemGuid: string; quantity: number };
  deleteLineItem: { orderGuid: string; lineItemGuid: string };
}

export type OutboxName = keyof OutboxPayloads;

/** What the lab's answer says, in one shape for every change: the drain writes it to the tables. */
export interface SendOutcome {
  /** The whole order (update_quantity and delete answer with it). */
  order?: FullOrder;
  /** The line items the lab answered with (add and update). */
  lineItems?: ServerLineItem[];
  /** New order figures beside them (meta.order). */
  orderAttributes?: Partial<FullOrderAttributes>;
  /** Line items now gone from the lab. */
  removed?: string[];
}

export interface SendContext {
  calls: LineItemCalls;
  idempotencyKey: string;
}

export interface OutboxHandler<K extends OutboxName> {
  /** True for a payload this handler can send (rows are written by other versions and by hand too). */
  accepts(payload: unknown): payload is OutboxPayloads[K];
  /** The line items the change is about: marked pending while it waits, refused if the lab refuses. */
  lineItemGuids(payload: OutboxPayloads[K]): string[];
  send(payload: OutboxPayloads[K], ctx: SendContext): Promise<SendOutcome>;
  /** True when this failure means the change is already done (a delete of what is gone). */
  alreadyDone?(status: number | null): boolean;
}

type Handlers = { [K in OutboxName]: OutboxHandler<K> };

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isLineItemPayload = (v: unknown): v is LineItemPayload =>
  isRecord(v) && isText(v.guid) && isText(v.print_size) && isText(v.source_photograph_guid) && typeof v.quantity === 'number';

export const outboxHandlers: Handlers = {
  addLineItems: {
    accepts: (p): p is OutboxPayloads['addLineItems'] =>
      isRecord(p) && isText(p.orderGuid) && Array.isArray(p.lineItems) && p.lineItems.length > 0 && p.lineItems.every(isLineItemPayload),
    lineItemGuids: (p) => p.lineItems.map((l) => l.guid),
    send: async (p, { calls, idempotencyKey }) => {
      const answer = await calls.postLineItems(p.orderGuid, p.lineItems, idempotencyKey);
      // The lab merges a line another device added meanwhile (same photo, print size, finishing)
      // and answers with that line, under its own guid: this device's copy goes, the lab's stays.
      const answered = new Set(answer.data.map((l) => l.guid));
      const merged = p.lineItems.map((l) => l.guid).filter((guid) => !answered.has(guid));
      return {
        lineItems: answer.data,
        ...(merged.length > 0 ? { removed: merged } : {}),
        ...(answer.meta?.order ? { orderAttributes: answer.meta.order } : {}),
      };
    },
  },
  updateLineItem: {
    accepts: (p): p is OutboxPayloads['updateLineItem'] => isRecord(p) && isText(p.orderGuid) && isLineItemPayload(p.lineItem),
    lineItemGuids: (p) => [p.lineItem.guid],
    send: async (p, { calls, idempotencyKey }) => {
      const answer = await calls.updateLineItem(p.orderGuid, p.lineItem, idempotencyKey);
      return { lineItems: [answer.data], ...(answer.meta?.order ? { orderAttributes: answer.meta.order } : {}) };
    },
  },
  updateQuantity: {
    accepts: (p): p is OutboxPayloads['updateQuantity'] =>
      isRecord(p) && isText(p.orderGuid) && isText(p.lineItemGuid) && typeof p.quantity === 'number',
    lineItemGuids: (p) => [p.lineItemGuid],
    send: async (p, { calls, idempotencyKey }) => ({ order: await calls.updateQuantity(p.lineItemGuid, p.quantity, idempotencyKey) }),
  },
  deleteLineItem: {
    accepts: (p): p is OutboxPayloads['deleteLineItem'] => isRecord(p) && isText(p.orderGuid) && isText(p.lineItemGuid),
    lineItemGuids: (p) => [p.lineItemGuid],
    send: async (p, { calls, idempotencyKey }) => {
      const order = await calls.deleteLineItem(p.lineItemGuid, idempotencyKey);
      return { order, removed: [p.lineItemGuid] };
    },
    // Deleting a line item the lab no longer has: what the user wanted is true already.
    alreadyDone: (status) => status === 404,
  },
};

/** A row read through its handler: the typed name and payload together, or null when unreadable. */
export type ReadEntry = { [K in OutboxName]: { name: K; payload: OutboxPayloads[K]; handler: OutboxHandler<K> } }[OutboxName];

export function readEntry(name: string, payload: unknown): ReadEntry | null {
  if (!Object.hasOwn(outboxHandlers, name)) return null;
  const key = name as OutboxName;
  const handler = outboxHandlers[key] as OutboxHandler<OutboxName>;
  if (!handler.accepts(payload)) return null;
  return { name: key, payload, handler } as ReadEntry;
}

/** Sends a read entry: the one place where a name meets its handler (types follow the name). */
export function sendEntry(entry: ReadEntry, ctx: SendContext): Promise<SendOutcome> {
  const handler = entry.handler as OutboxHandler<typeof entry.name>;
  return handler.send(entry.payload as never, ctx);
}

export const entryLineItemGuids = (entry: ReadEntry): string[] =>
  (entry.handler as OutboxHandler<typeof entry.name>).lineItemGuids(entry.payload as never);
