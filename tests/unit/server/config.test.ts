import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../../server/config.ts';

describe('loadConfig', () => {
  it('has the embedded defaults of docs/architecture.md §2', () => {
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
    [{ TRUST_PROXY: 'maybe' }, /^Invalid configuration: TRUST_PROXY must be false, true \(one load balancer\), the number of proxies in front, or their addresses/],
    [{ TRUST_PROXY: '10.0.0.1, not-an-address' }, /^Invalid configuration: TRUST_PROXY must be false/],
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

  it('reads TRUST_PROXY as the proxies whose X-Forwarded-For entries are believed', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    // One load balancer: its own entry only, never what the caller wrote before it.
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.0.2.7' }).trustProxy).toEqual(['10.0.0.0/8', '192.0.2.7']);
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

  it('keeps files in DATA_DIR/objects unless S3_BUCKET names a bucket', () => {
    expect(loadConfig({}).s3).toBeUndefined();
    expect(loadConfig({ S3_BUCKET: 'lab-photos' }).s3).toEqual({ bucket: 'lab-photos', region: 'us-east-1', endpoint: undefined, forcePathStyle: false, credentials: undefined });
    const minio = loadConfig({ S3_BUCKET: 'photos', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_REGION: 'eu-central-1', S3_ACCESS_KEY_ID: 'id', S3_SECRET_ACCESS_KEY: 'secret' }).s3;
    expect(minio).toEqual({ bucket: 'photos', region: 'eu-central-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, credentials: { accessKeyId: 'id', secretAccessKey: 'secret' } });
    expect(loadConfig({ S3_BUCKET: 'photos', S3_ENDPOINT: 'https://s3.example', S3_FORCE_PATH_STYLE: 'false' }).s3?.forcePathStyle).toBe(false);
  });

  it.each([
    [{ S3_BUCKET: 'Not_A_Bucket' }, /^Invalid configuration: S3_BUCKET must be an S3 bucket name/],
    [{ S3_ENDPOINT: 'http://127.0.0.1:9000' }, /^Invalid configuration: S3_BUCKET is needed with the other S3_ settings/],
    [{ S3_BUCKET: 'photos', S3_ACCESS_KEY_ID: 'id' }, /^Invalid configuration: S3_SECRET_ACCESS_KEY S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY must be set together/],
    [{ S3_BUCKET: 'photos', S3_SECRET_ACCESS_KEY: 'oops-secret', S3_ACCESS_KEY_ID: '' }, /^(?!.*oops-secret)/],
  ])('%o is refused at start', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('takes the crash test\'s point only outside production', () => {
    expect(loadConfig({}).crashAt).toBeUndefined();
    expect(loadConfig({ LAB_TEST_CRASH_AT: 'payment-pending' }).crashAt).toBe('payment-pending');
    expect(() => loadConfig({ LAB_TEST_CRASH_AT: 'somewhere' })).toThrow(/^Invalid configuration: LAB_TEST_CRASH_AT must be one of idempotent-change-committed, payment-pending \(got "somewhere"\)$/);
    expect(() => loadConfig({ LAB_TEST_CRASH_AT: 'payment-pending', NODE_ENV: 'production' })).toThrow(
      /^Invalid configuration: LAB_TEST_CRASH_AT is for the crash test only and is refused with NODE_ENV=production/,
    );
  });
});
