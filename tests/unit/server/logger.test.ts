import Fastify from 'fastify';
import { describe, expect, it, vi } from 'vitest';
import { REDACTED, REDACT_PATHS, loggerOptions, redactUrl, requestChildLogger, scrubText, serializeError } from '../../../server/http/logger.ts';

describe('the logger keeps secrets out', () => {
  it('blanks signatures, credentials and tokens in URLs, and keeps the rest', () => {
    expect(redactUrl('/storage/a.pdf?expires=1795386400&ct=application%2Fpdf&sig=abc_DEF-123')).toBe(`/storage/a.pdf?expires=1795386400&ct=application%2Fpdf&sig=${REDACTED}`);
    expect(redactUrl('/p.jpg?X-Amz-Credential=AKIA%2F1&X-Amz-Date=20270101T000000Z&x-amz-signature=ff00')).toBe(
      `/p.jpg?X-Amz-Credential=${REDACTED}&X-Amz-Date=20270101T000000Z&x-amz-signature=${REDACTED}`,
    );
    expect(redactUrl('/api/v2/profile?token=s3cr3t#top')).toBe(`/api/v2/profile?token=${REDACTED}#top`);
    expect(redactUrl('/api/v2/lab_orders?page=2')).toBe('/api/v2/lab_orders?page=2');
  });

  it('blanks argon2 hashes and card numbers, but not timestamps or other numbers', () => {
    expect(scrubText('hash $argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g, next')).toBe(`hash ${REDACTED}, next`);
    expect(scrubText('card 4242 4242 4242 4242 and 4000-0000-0000-0002 and 378282246310005')).toBe(`card ${REDACTED} and ${REDACTED} and ${REDACTED}`);
    // Not a card (fails Luhn's check), and a JSON time: both stay.
    expect(scrubText('order 4242424242424241')).toBe('order 4242424242424241');
    const line = '{"level":30,"time":1795384601803,"msg":"ok"}';
    expect(scrubText(line)).toBe(line);
  });

  it("cuts a failed query's parameters from its message, in plain text and inside a JSON line", () => {
    const message = 'Failed query: insert into "users" ("email") values ($1)\nparams: a@b.c,$argon2id$v=19$x';
    expect(scrubText(`${message}\n    at run (db.js:1:1)`)).toBe(`Failed query: insert into "users" ("email") values ($1)\nparams: ${REDACTED}\n    at run (db.js:1:1)`);
    const json = JSON.stringify({ msg: message, other: 'kept' });
    expect(JSON.parse(scrubText(json))).toEqual({ msg: `Failed query: insert into "users" ("email") values ($1)\nparams: ${REDACTED}`, other: 'kept' });
  });

  it('logs an error without the values it carried, down its cause chain', () => {
    const cause = Object.assign(new Error('duplicate key value violates unique constraint "users_email_key"'), {
      code: '23505',
      detail: 'Key (email)=(ansel@example.com) already exists.',
      constraint: 'users_email_key',
    });
    const err = Object.assign(new Error('Failed query: insert into "users" ("email") values ($1)\nparams: ansel@example.com'), { params: ['ansel@example.com'], query: 'insert …' }, { cause });
    const out = JSON.stringify(serializeError(err));
    expect(out).not.toContain('ansel@example.com');
    expect(out).toContain('23505');
    expect(out).toContain('users_email_key');
    expect(out).toContain('Key (email)=([REDACTED]) already exists.');
  });

  it('has redaction paths for passwords, tokens and card data at several depths', () => {
    for (const path of ['password', '*.password', '*.*.current_password', '*.token', '*.cvc', '*.number', '*.*.params', 'req.headers.token']) {
      expect(REDACT_PATHS).toContain(path);
    }
  });
});

describe("a request's logger", () => {
  const parent = (level: string) => {
    const lines: string[] = [];
    // The app's logger as Fastify builds it (pino with our options).
    return { lines, logger: Fastify({ logger: loggerOptions({ level, stream: { write: (line) => lines.push(line) } }) }).log };
  };

  it('binds the request id, and makes no pino child for a request that logs nothing', () => {
    const { lines, logger } = parent('warn');
    const made = vi.spyOn(logger, 'child');
    const log = requestChildLogger.call(undefined as never, logger, { reqId: 'req-7' }, {}, undefined as never);
    log.info('not at warn');
    expect(made).not.toHaveBeenCalled();
    log.error({ err: new Error('boom') }, 'request failed');
    expect(made).toHaveBeenCalledTimes(1);
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ reqId: 'req-7', msg: 'request failed', err: { message: 'boom' } });
    expect(log.level).toBe('warn');
  });

  it('keeps a route of its own level', () => {
    const { lines, logger } = parent('warn');
    const log = requestChildLogger.call(undefined as never, logger, { reqId: 'req-8' }, { level: 'info' }, undefined as never);
    log.info('at the route level');
    expect(lines).toHaveLength(1);
    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ reqId: 'req-8', msg: 'at the route level' });
  });
});
