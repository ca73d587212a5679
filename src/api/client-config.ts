import { call } from './call.ts';

/** What the app needs to know before anyone signs in (where errors are reported, if anywhere). */
export const getClientConfig = () => call('GET /client_config', {}, { auth: false });
