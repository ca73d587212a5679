import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../server/config.ts';
import { loadWebhookKey, secretBox, webhookKeyFile } from '../../../server/services/webhook-secrets.ts';

/** The key that seals partner webhooks' signing secrets: where it comes from, and what it refuses. */

const dirs: string[] = [];
const dataDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lab-webhook-key-'));
  dirs.push(dir);
  return dir;
};
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const POSTGRES = 'postgres://lab@db-host/printlab';

describe('WEBHOOK_SECRET_KEY', () => {
  it('takes 32 bytes as hex or base64, and says what it wants otherwise without echoing it', () => {
    const key = randomBytes(32);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString('hex') }).webhookSecretKey).toEqual(key);
    expect(loadConfig({ WEBHOOK_SECRET_KEY: key.toString('base64') }).webhookSecretKey).toEqual(key);
    expect(() => loadConfig({ WEBHOOK_SECRET_KEY: randomBytes(16).toString('base64') })).toThrow(
      /^Invalid configuration: WEBHOOK_SECRET_KEY must be 32 random bytes as 64 hex digits or base64, e\.g\. the output of `openssl rand -base64 32`$/,
    );
  });

  it('is needed in production on PostgreSQL, where several processes must share it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: POSTGRES })).toThrow(/^Invalid configuration: WEBHOOK_SECRET_KEY is needed with NODE_ENV=production and DATABASE_URL/);
    expect(loadConfig({ NODE_ENV: 'production' }).webhookSecretKey).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: POSTGRES }).webhookSecretKey).toBeUndefined();
  });
});

describe('loadWebhookKey', () => {
  it('makes the embedded key file once, readable by its owner only, and keeps it', () => {
    const config = loadConfig({ DATA_DIR: join(dataDir(), 'not-yet') });
    const first = loadWebhookKey(config, 'app secret');
    expect(first.source).toBe('key file');
    expect(statSync(webhookKeyFile(config.dataDir)).mode & 0o777).toBe(0o600);
    expect(loadWebhookKey(config, 'app secret').key).toEqual(first.key);
  });

  it('prefers WEBHOOK_SECRET_KEY, and on PostgreSQL without it derives one every process shares', () => {
    const key = randomBytes(32);
    const dir = dataDir();
    expect(loadWebhookKey(loadConfig({ DATA_DIR: dir, WEBHOOK_SECRET_KEY: key.toString('hex') }), 'app secret')).toEqual({ key, source: 'WEBHOOK_SECRET_KEY' });
    const onPostgres = loadConfig({ DATA_DIR: dir, DATABASE_URL: POSTGRES });
    const derived = loadWebhookKey(onPostgres, 'app secret');
    expect(derived.source).toBe('database');
    expect(loadWebhookKey(onPostgres, 'app secret').key).toEqual(derived.key);
    expect(loadWebhookKey(onPostgres, 'another lab').key).not.toEqual(derived.key);
    expect(() => statSync(webhookKeyFile(dir))).toThrow(/ENOENT/);
  });
});

describe('secretBox', () => {
  it('opens what it sealed for the same place, and names a text sealed under another key', () => {
    const box = secretBox(randomBytes(32));
    const sealed = box.seal('whsec_abc', 'webhook_endpoints:1');
    expect(sealed).not.toContain('whsec_abc');
    expect(box.seal('whsec_abc', 'webhook_endpoints:1')).not.toBe(sealed);
    expect(box.open(sealed, 'webhook_endpoints:1')).toBe('whsec_abc');
    expect(() => box.open(sealed, 'webhook_endpoints:2')).toThrow(/unable to authenticate/);
    expect(() => secretBox(randomBytes(32)).open(sealed, 'webhook_endpoints:1')).toThrow(/sealed with another WEBHOOK_SECRET_KEY/);
  });
});
