import { API } from '../domain/paths.ts';
import { apiRequest } from './client.ts';
import type { ClientConfig } from './error-reporting.ts';

/** What the app needs to know before anyone signs in (where errors are reported, if anywhere). */
export const getClientConfig = () => apiRequest<ClientConfig>('GET', API.clientConfig, { auth: false });
