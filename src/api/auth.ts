import { API } from '../domain/paths.ts';
import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';
import { apiRequest } from './client.ts';
import type { SessionAnswer } from './session.ts';

export const login = (email: string, password: string) =>
  apiRequest<SessionAnswer>('POST', API.login, { body: { email, password }, auth: false });

export const logout = () => apiRequest<{ success: true }>('DELETE', API.logout);

export const logoutAllSessions = () => apiRequest<{ success: true }>('DELETE', API.logoutAllSessions);

export type ServerStatus = AnswerOf<Contract['GET /status']>;

export const getStatus = (signal?: AbortSignal) => call('GET /status', {}, { auth: false, ...(signal ? { signal } : {}) });
