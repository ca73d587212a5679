import { API } from '../domain/paths.ts';
import { apiRequest } from './client.ts';

/** The client-version check of both specs: the build the server serves now. */
export const getClientVersion = () => apiRequest<{ version: string }>('GET', API.clientVersion, { auth: false });
