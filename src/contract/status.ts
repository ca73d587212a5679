import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { errorAnswers } from './error-body.ts';

/** Whether the lab is up, and what the app needs before anyone signs in. */
export const statusEndpoints = {
  status: endpoint({
    method: 'GET',
    path: '/status',
    tags: ['status'],
    summary: 'Is the lab API up, and which version runs',
    public: true,
    answers: { 200: z.object({ status: z.literal('ok'), version: z.string(), database: z.literal('ok'), server_time: z.string() }) },
  }),
  clientConfig: endpoint({
    method: 'GET',
    path: '/client_config',
    tags: ['status'],
    summary: 'What the app needs before anyone signs in: where it reports its errors (null when error reporting is off)',
    public: true,
    answers: { 200: z.object({ error_reporting: z.object({ dsn: z.string(), environment: z.string() }).nullable() }) },
  }),
  clientVersion: endpoint({
    method: 'GET',
    path: '/client_version',
    tags: ['status'],
    summary: 'The version of the app build being served now; a running app that differs updates itself',
    public: true,
    answers: { ...errorAnswers(404), 200: z.object({ version: z.string() }) },
  }),
};
