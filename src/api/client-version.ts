import { call } from './call.ts';

/** The client-version check of both specs: the build the server serves now. */
export const getClientVersion = () => call('GET /client_version', {}, { auth: false });
