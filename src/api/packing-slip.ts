import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import type { ReturnAddress } from '../domain/packing-slip.ts';
import { call } from './call.ts';

/** The blind packing slip (src/contract/packing-slip.ts): the studio's identity, and an order's slip for the lab. */
export type PackingSlipIdentity = AnswerOf<Contract['GET /accounts/packing_slip']>['data'];

export const getPackingSlip = async () => (await call('GET /accounts/packing_slip', {})).data;
export const setReturnAddress = async (address: ReturnAddress | null) => (await call('PUT /accounts/packing_slip/return_address', { body: { return_address: address } })).data;
/** The logo as the data: URL FileReader makes of the file; the lab checks its bytes. */
export const setLogo = async (dataUrl: string) => (await call('PUT /accounts/packing_slip/logo', { body: { data: dataUrl } })).data;
export const removeLogo = async () => (await call('DELETE /accounts/packing_slip/logo', {})).data;
/** Admins: a signed link to the order's slip PDF, made now. */
export const packingSlipLink = async (orderGuid: string) => (await call('GET /lab_orders/:guid/packing_slip', { params: { guid: orderGuid } })).packing_slip_link;
