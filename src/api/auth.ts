import { API } from '../domain/paths.ts';
import { apiRequest } from './client.ts';
import type { SessionAnswer } from './session.ts';

export const login = (email: string, password: string) =>
  apiRequest<SessionAnswer>('POST', API.login, { body: { email, password }, auth: false });

export const logout = () => apiRequest<{ success: true }>('DELETE', API.logout);

export const logoutAllSessions = () => apiRequest<{ success: true }>('DELETE', API.logoutAllSessions);

export interface ServerStatus {
  status: 'ok';
  version: string;
  database: 'ok';
  server_time: string;
}

export const getStatus = (signal?: AbortSignal) =>
  apiRequest<ServerStatus>('GET', API.status, { auth: false, ...(signal ? { signal } : {}) });
