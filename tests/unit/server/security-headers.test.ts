import helmet from '@fastify/helmet';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, registerSecurityHeaders } from '../../../server/http/security-headers.ts';

const options = { contentSecurityPolicy: { directives: contentSecurityPolicy({ sentry: undefined }, 'https://photos.example-bucket.test') } };

async function answerHeaders(register: (app: ReturnType<typeof Fastify>) => Promise<unknown>) {
  const app = Fastify();
  await register(app);
  app.get('/x', () => ({ ok: true }));
  const res = await app.inject({ method: 'GET', url: '/x' });
  await app.close();
  const { date: _date, ...headers } = res.headers;
  return headers;
}

describe('the security headers', () => {
  it('are the ones @fastify/helmet sets with the same options, worked out once', async () => {
    const ours = await answerHeaders((app) => registerSecurityHeaders(app, options));
    const plugin = await answerHeaders((app) => app.register(helmet, options));
    expect(ours).toEqual(plugin);
    expect(ours['content-security-policy']).toContain('https://photos.example-bucket.test');
    expect(ours['x-frame-options']).toBe('SAMEORIGIN');
  });
});
