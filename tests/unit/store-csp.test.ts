import { describe, expect, it } from 'vitest';
import { S3Storage } from '../../server/adapters/storage/s3-storage.ts';
import { loadConfig } from '../../server/config.ts';
import { contentSecurityPolicy } from '../../server/http/security-headers.ts';

/**
 * The page's Content-Security-Policy names the configured object store, as the S3 client really
 * addresses it: the upload worker PUTs to the bucket (connect-src) and the lab's thumbnails are
 * presigned bucket URLs (img-src). Nothing else is loosened.
 */
const KEYS = { S3_ACCESS_KEY_ID: 'AKIDEXAMPLE', S3_SECRET_ACCESS_KEY: 'secret' };
const BASE_CONNECT = ["'self'", 'https://api.stripe.com'];
const BASE_IMG = ["'self'", 'data:', 'blob:'];

async function policyFor(env: Record<string, string>) {
  const config = loadConfig({ DATA_DIR: '/nonexistent', ...env });
  if (!config.s3) throw new Error('the case names no bucket');
  const store = new S3Storage(config.s3);
  const origin = await store.browserOrigin();
  // The origin is the one of every address the browser is handed: single PUT, part PUT, GET.
  const put = await store.presignPut('incoming/photos/a.jpg', { contentType: 'image/jpeg', maxBytes: 1, expiresInSeconds: 60 });
  const part = await store.presignPart('incoming/photos/b.jpg', 'upload-1', 1, { maxBytes: 1, expiresInSeconds: 60 });
  const get = await store.presignGet('photos/c.jpg', { expiresInSeconds: 60 });
  expect([put.url, part, get].map((url) => new URL(url).origin)).toEqual([origin, origin, origin]);
  const policy = contentSecurityPolicy(config, origin);
  return { origin, connectSrc: policy.connectSrc, imgSrc: policy.imgSrc };
}

describe('the page may reach the configured S3 store, and only it', () => {
  it.each([
    ['AWS: the bucket’s virtual-hosted origin', { S3_BUCKET: 'lab-prints', S3_REGION: 'eu-central-1' }, 'https://lab-prints.s3.eu-central-1.amazonaws.com'],
    // The SDK addresses us-east-1 by its regional host, not the legacy global one.
    ['AWS us-east-1: the regional virtual-hosted origin', { S3_BUCKET: 'lab-prints' }, 'https://lab-prints.s3.us-east-1.amazonaws.com'],
    ['AWS with S3_FORCE_PATH_STYLE: the path-style origin', { S3_BUCKET: 'lab-prints', S3_REGION: 'eu-west-2', S3_FORCE_PATH_STYLE: 'true' }, 'https://s3.eu-west-2.amazonaws.com'],
    // A dotted name cannot be a host under the bucket's TLS certificate, so the SDK goes path-style.
    ['AWS, a bucket name with dots: the path-style origin', { S3_BUCKET: 'prints.lab.example', S3_REGION: 'eu-central-1' }, 'https://s3.eu-central-1.amazonaws.com'],
    ['AWS China: that partition’s domain', { S3_BUCKET: 'lab-prints', S3_REGION: 'cn-north-1' }, 'https://lab-prints.s3.cn-north-1.amazonaws.com.cn'],
    ['S3_ENDPOINT (path-style by default): its origin', { S3_BUCKET: 'photos', S3_ENDPOINT: 'http://127.0.0.1:9000/' }, 'http://127.0.0.1:9000'],
    ['S3_ENDPOINT with a path: its origin only', { S3_BUCKET: 'photos', S3_ENDPOINT: 'https://minio.lab.example:9443/store' }, 'https://minio.lab.example:9443'],
    [
      'S3_ENDPOINT with S3_FORCE_PATH_STYLE=false: the bucket under the endpoint’s host',
      { S3_BUCKET: 'photos', S3_ENDPOINT: 'https://s3.eu-central-1.wasabisys.com', S3_FORCE_PATH_STYLE: 'false' },
      'https://photos.s3.eu-central-1.wasabisys.com',
    ],
  ])('%s', async (_case, env, expected) => {
    const { origin, connectSrc, imgSrc } = await policyFor({ ...KEYS, ...env });
    expect(origin).toBe(expected);
    expect(connectSrc).toEqual([...BASE_CONNECT, expected]);
    expect(imgSrc).toEqual([...BASE_IMG, expected]);
  });

  it('the origin is found without the store’s credentials (an instance role is not asked at start)', async () => {
    const { s3 } = loadConfig({ DATA_DIR: '/nonexistent', S3_BUCKET: 'lab-prints', S3_REGION: 'eu-central-1' });
    if (!s3) throw new Error('no bucket');
    expect(s3.credentials).toBeUndefined();
    expect(await new S3Storage(s3).browserOrigin()).toBe('https://lab-prints.s3.eu-central-1.amazonaws.com');
  });

  it('the local store adds nothing, and the rest of the policy is the same with or without a store', () => {
    const config = loadConfig({ DATA_DIR: '/nonexistent' });
    const local = contentSecurityPolicy(config, null);
    expect(local.connectSrc).toEqual(BASE_CONNECT);
    expect(local.imgSrc).toEqual(BASE_IMG);
    const withStore = contentSecurityPolicy(config, 'https://lab-prints.s3.eu-central-1.amazonaws.com');
    const { connectSrc: _c, imgSrc: _i, ...rest } = withStore;
    const { connectSrc: _lc, imgSrc: _li, ...localRest } = local;
    expect(rest).toEqual(localRest);
  });
});
