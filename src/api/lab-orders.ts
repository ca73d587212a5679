import { API } from '../domain/paths.ts';
import { apiRequest } from './client.ts';

export interface LabOrderListAttributes {
  id: number;
  guid: string;
  order_name: string;
  status: string;
  created_at: string;
  updated_at: string;
  paid_at: string | null;
  photographer_id: string;
  photographer_name: string;
  photographer_business: string;
  photographer_email: string;
}

export interface ListMeta {
  current_user_is_admin: boolean;
  current_user_is_api_vendor: boolean;
  view_as_photographer_id: string | null;
  view_as_photographer: string | null;
}

export interface LabOrderList {
  data: { id: string; type: 'lab_order'; attributes: LabOrderListAttributes }[];
  meta: ListMeta;
}

export const getLabOrders = (signal?: AbortSignal) =>
  apiRequest<LabOrderList>('GET', API.labOrders, signal ? { signal } : {});
