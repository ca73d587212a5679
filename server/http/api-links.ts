import { API } from '../../src/domain/paths.ts';

/**
 * An operation's id in the API document, made from its method and path (without /api/v2):
 * 'POST', '/lab_orders/:guid/checkout' → 'postLabOrdersByGuidCheckout'. Client generators name
 * their functions after it, and links name their target by it.
 */
export function operationId(method: string, path: string): string {
  const words = path
    .split('/')
    .filter(Boolean)
    .map((segment) => {
      const param = /^[:{]([^}]+)}?$/.exec(segment)?.[1];
      const word = (param ?? segment).split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0]?.toUpperCase() + w.slice(1)).join('');
      return param ? `By${word}` : word;
    });
  return `${method.toLowerCase()}${words.join('')}`;
}

/** One answer feeding another call (an OpenAPI link on the `from` operation's `status` answer). */
export interface ApiLink {
  name: string;
  from: string;
  status: number;
  to: string;
  /** The target's path parameters, as runtime expressions on this answer or its request. */
  parameters?: Record<string, string>;
  description: string;
}

const op = operationId;
// A created order's guid, in the order's answer (POST /lab_orders, 201).
const CREATED_ORDER = { guid: '$response.body#/data/attributes/guid' };
const ORDER_OF_REQUEST = { guid: '$request.path.guid' };

/** The created order's guid names the order in each of its calls. */
const orderCalls: [string, string, string][] = [
  ['GetOrder', op('GET', API.labOrder), 'The order with its photos.'],
  ['ChangeOrder', op('PATCH', API.labOrder), 'Change the order (shipping, card, discount code...).'],
  ['DeleteOrder', op('DELETE', API.labOrder), 'Delete the open order.'],
  ['RetrieveFullOrder', op('GET', API.retrieveFullOrder), 'The order with its figures and line items.'],
  ['OrderPhotographs', op('GET', API.labOrderPhotographs), "The order's photos, a page at a time."],
  ['CreatePresignedUrl', op('POST', API.createPresignedUrl), 'Ask where to upload a photo of the order.'],
  ['AddLineItems', op('POST', API.orderLineItems), 'Add line items to the order.'],
  ['Checkout', op('POST', API.checkout), 'Pay for the order.'],
];

/** The links of the API document; api-document.ts fails to build the document if one names an operation it lacks. */
export const API_LINKS: ApiLink[] = [
  ...orderCalls.map(([name, to, description]) => ({ name, from: op('POST', API.labOrders), status: 201, to, parameters: CREATED_ORDER, description })),
  {
    name: 'CompleteUpload',
    from: op('POST', API.createPresignedUrl),
    status: 200,
    to: op('POST', API.completeUpload),
    parameters: ORDER_OF_REQUEST,
    description: 'Multipart: once every part is PUT to its signedUrl, send this answer\'s uploadId ($response.body#/uploadId) with each part\'s ETag to complete the upload.',
  },
  {
    name: 'PhotographUploaded',
    from: op('POST', API.createPresignedUrl),
    status: 200,
    to: op('PATCH', API.photographUploaded),
    parameters: ORDER_OF_REQUEST,
    description: 'Once the photo is stored (the single PUT, or complete_upload), tell the lab the upload is done.',
  },
  ...[
    ['ChangeLineItem', op('PATCH', API.orderLineItem), { guid: '$request.path.guid', lineItemGuid: '$response.body#/data/0/guid' }, 'Change a created line item (each of data[] by its guid).'],
    ['UpdateQuantity', op('PATCH', API.updateQuantity), { guid: '$response.body#/data/0/guid' }, 'Set the quantity of a created line item (each of data[] by its guid).'],
    ['DeleteLineItem', op('DELETE', API.lineItem), { guid: '$response.body#/data/0/guid' }, 'Remove a created line item (each of data[] by its guid).'],
  ].map(([name, to, parameters, description]) => ({ name, from: op('POST', API.orderLineItems), status: 201, to, parameters, description }) as ApiLink),
  {
    name: 'ChooseCardForOrder',
    from: op('POST', API.createCard),
    status: 200,
    to: op('PATCH', API.labOrder),
    parameters: { guid: '$request.body#/lab_order_id' },
    description: 'Choose a saved card for an order: {"type":"used_saved_card","value":<the card id>}. With lab_order_id, create_card has already chosen it for that order.',
  },
  {
    name: 'MakeCardPrimary',
    from: op('POST', API.createCard),
    status: 200,
    to: op('POST', API.updateDefaultCard),
    description: 'Make a saved card the primary one: {"make_primary":<the card id>}.',
  },
  {
    name: 'RemoveCard',
    from: op('POST', API.createCard),
    status: 200,
    to: op('POST', API.removeCard),
    description: 'Remove a saved card: {"selected_item":<the card id>}.',
  },
];
