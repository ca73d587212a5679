import { describe, expect, it } from 'vitest';
import { RETRY_BASE_MS, RETRY_CAP_MS, classifyFailure, retryDelayMs } from '../../../src/upload/shared/upload-retry.ts';

describe('retry delays: exponential with full jitter', () => {
  it('doubles the ceiling with each attempt up to the cap', () => {
    const top = () => 0.999999;
    expect(retryDelayMs(1, top)).toBe(RETRY_BASE_MS - 1);
    expect(retryDelayMs(2, top)).toBe(2 * RETRY_BASE_MS - 1);
    expect(retryDelayMs(4, top)).toBe(8 * RETRY_BASE_MS - 1);
    expect(retryDelayMs(30, top)).toBe(RETRY_CAP_MS - 1);
  });

  it('is uniform from zero: clients cut off together do not return together', () => {
    expect(retryDelayMs(5, () => 0)).toBe(0);
    expect(retryDelayMs(5, () => 0.5)).toBe(8 * RETRY_BASE_MS);
    const seen = new Set(Array.from({ length: 200 }, () => retryDelayMs(6)));
    expect(seen.size).toBeGreaterThan(150);
    for (const d of seen) expect(d).toBeLessThan(32 * RETRY_BASE_MS);
  });
});

describe('classifyFailure', () => {
  it('waits for the connection when there is no answer', () => {
    for (const kind of ['storage', 'renew', 'api'] as const) expect(classifyFailure(kind, { status: 0 })).toBe('offline');
  });

  it('renews an expired storage URL (local store and S3 words)', () => {
    expect(classifyFailure('storage', { status: 403, className: 'SignatureExpired' })).toBe('expired');
    expect(classifyFailure('storage', { status: 403, className: 'AccessDenied', message: 'Request has expired' })).toBe('expired');
    expect(classifyFailure('storage', { status: 403, className: 'Forbidden', message: 'This link is not valid.' })).toBe('fatal');
  });

  it('goes to the confirmation when storage says the key is sealed; starts again when the upload is forgotten', () => {
    expect(classifyFailure('storage', { status: 409 })).toBe('sealed');
    expect(classifyFailure('storage', { status: 404 })).toBe('gone');
    expect(classifyFailure('renew', { status: 404, className: 'NotFound' })).toBe('gone');
  });

  it('backs off on busy or broken servers', () => {
    for (const status of [408, 429, 500, 502, 503, 504]) expect(classifyFailure('api', { status })).toBe('transient');
  });

  it('asks again, without giving up, when the lab is still working on the same request', () => {
    expect(classifyFailure('api', { status: 409, className: 'RequestInProgress' })).toBe('busy');
    expect(classifyFailure('renew', { status: 409, className: 'RequestInProgress' })).toBe('busy');
  });

  it('sends a step again under a new key when the lab says its key is another sign-in\'s', () => {
    expect(classifyFailure('api', { status: 409, className: 'IdempotencyKeyReused' })).toBe('rekey');
    expect(classifyFailure('renew', { status: 409, className: 'IdempotencyKeyReused' })).toBe('rekey');
  });

  it('rejects what the server refuses, fails on the rest', () => {
    expect(classifyFailure('api', { status: 422, className: 'ValidationError' })).toBe('refused');
    expect(classifyFailure('storage', { status: 413 })).toBe('refused');
    expect(classifyFailure('api', { status: 409, className: 'OrderNotOpen' })).toBe('fatal');
    expect(classifyFailure('api', { status: 404 })).toBe('fatal');
    expect(classifyFailure('storage', { status: 401 })).toBe('fatal');
  });

  it('a session that ended is no reason to fail a photo: it waits for its owner to sign in again', () => {
    expect(classifyFailure('api', { status: 401, className: 'Unauthorized' })).toBe('offline');
    expect(classifyFailure('renew', { status: 401 })).toBe('offline');
  });
});
