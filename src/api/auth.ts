import type { AnswerOf } from '../contract/endpoint.ts';
import type { Contract } from '../contract/index.ts';
import { call } from './call.ts';

export const login = (email: string, password: string) => call('POST /login', { body: { email, password } }, { auth: false });

export const logout = () => call('DELETE /logout', {});

export const logoutAllSessions = () => call('DELETE /logout_all_sessions', {});

export type ServerStatus = AnswerOf<Contract['GET /status']>;

export const getStatus = (signal?: AbortSignal) => call('GET /status', {}, { auth: false, ...(signal ? { signal } : {}) });
