import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';

describe('loadConfig', () => {
  it('has the embedded defaults of DESIGN.md §2', () => {
    const c = loadConfig({});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toMatch(/\/data$/);
    expect(c.databaseUrl).toBeUndefined();
    expect(c.admin).toBeUndefined();
  });

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).port).toBe(8080);
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT must be a whole number from 1 to 65535 \(got "eighty"\)$/],
    [{ TRUST_PROXY: 'maybe' }, /^Invalid configuration: TRUST_PROXY must be true or false/],
    [{ PORT: '70000' }, /^Invalid configuration: PORT /],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must be a postgres/],
    [{ PUBLIC_URL: 'not a url' }, /^Invalid configuration: PUBLIC_URL /],
    [{ ADMIN_EMAIL: 'owner@lab.example' }, /^Invalid configuration: ADMIN_PASSWORD ADMIN_EMAIL and ADMIN_PASSWORD must be set together/],
    [{ ADMIN_EMAIL: 'not-an-email', ADMIN_PASSWORD: 'long-enough' }, /^Invalid configuration: ADMIN_EMAIL /],
    [{ ADMIN_EMAIL: 'owner@lab.example', ADMIN_PASSWORD: 'short' }, /^Invalid configuration: ADMIN_PASSWORD must be at least 8 characters long$/],
    [{ LOG_LEVEL: 'loud' }, /^Invalid configuration: LOG_LEVEL /],
  ])('%o stops the start with one line naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('never echoes a secret value', () => {
    expect(() => loadConfig({ ADMIN_EMAIL: 'o@lab.example', ADMIN_PASSWORD: 'pw' })).toThrow(/^(?!.*"pw").*$/);
  });

  it('reads the admin and the database URL', () => {
    const c = loadConfig({ ADMIN_EMAIL: 'owner@lab.example', ADMIN_PASSWORD: 'long-enough', DATABASE_URL: 'postgres://u:p@127.0.0.1/lab', PORT: '9000' });
    expect(c.admin).toEqual({ email: 'owner@lab.example', password: 'long-enough' });
    expect(c.databaseUrl).toBe('postgres://u:p@127.0.0.1/lab');
    expect(c.port).toBe(9000);
  });
});
