import fc from 'fast-check';

/**
 * What a hostile or careless caller sends: control characters, NUL, lone surrogates, megabyte
 * strings, deep nesting, numbers no column holds, NaN-like strings, path traversal, SQL and
 * script text, the wrong JSON types, broken JSON and the wrong content types.
 */

const SQL = ["' OR '1'='1", "'; DROP TABLE users; --", '1); DELETE FROM sessions; --', "x'; SELECT pg_sleep(10); --", '%', '_'];
const SCRIPT = ['<script>alert(1)</script>', '"><img src=x onerror=alert(1)>', 'javascript:alert(1)', '{{constructor.constructor("return 1")()}}', '${7*7}', '=HYPERLINK("http://x")'];
export const TRAVERSAL = ['../../../../etc/passwd', '..\\..\\..\\windows\\win.ini', '..%2f..%2fetc%2fpasswd', '/etc/passwd', 'certificates/../../secret.pdf', 'C:\\boot.ini', '\\\\server\\share\\x'];
const NAN_LIKE = ['NaN', 'Infinity', '-Infinity', '1e309', '-1', '0x1F', '  42  ', '4 2', '9'.repeat(400), 'null', 'undefined', 'true', '[]', '{}'];
const MEGABYTE = 1024 * 1024;

const controlText = fc
  .string({ unit: fc.constantFrom('\u0000', '\u0001', '\u0008', '\u001b', '\u007f', '\u0085', '\u009f', '\n', '\r', '\t', 'a', 'é'), minLength: 1, maxLength: 12 })
  .filter((s) => /\p{Cc}/u.test(s));
const loneSurrogate = fc.constantFrom('\ud800', '\udbffA', 'x\udc00y', '\udfff', 'ok\ud83d');
const longText = fc.constantFrom('x'.repeat(MEGABYTE), 'é'.repeat(300_000), 'a'.repeat(5000), '📷'.repeat(2000));

export const hostileText: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...SQL, ...SCRIPT, ...TRAVERSAL, ...NAN_LIKE, '', ' ', '\u0000', 'a\u0000b') },
  { weight: 2, arbitrary: controlText },
  { weight: 1, arbitrary: loneSurrogate },
  { weight: 1, arbitrary: longText },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 2 ** 53, -(2 ** 53), 1e308, -1e308, 0, -1, 0.5, 5e-324, Number.MAX_SAFE_INTEGER + 2),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

const nested = (depth: number): unknown => (depth === 0 ? 'bottom' : [nested(depth - 1)]);
const nestedObject = (depth: number): unknown => (depth === 0 ? 'bottom' : { a: nestedObject(depth - 1) });

export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: hostileText },
  { weight: 2, arbitrary: hostileNumber },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(null, true, false, [], {}, nested(200), nestedObject(60), { $gt: '' }, { toString: 'x' }) },
  { weight: 1, arbitrary: fc.array(hostileText, { maxLength: 3 }) },
  { weight: 1, arbitrary: fc.dictionary(fc.string({ maxLength: 6 }), hostileText, { maxKeys: 3 }) },
);

/** Bodies that are not JSON of ours, each with the content type it is sent as. */
export const rawBodies: fc.Arbitrary<{ body: string; contentType: string }> = fc.record({
  body: fc.constantFrom(
    '{"email":',
    '{"__proto__":{"is_admin":true}}',
    '{"constructor":{"prototype":{"is_admin":true}}}',
    '['.repeat(100_000),
    `[${'['.repeat(5000)}${']'.repeat(5000)}]`,
    `{"x":"${'y'.repeat(MEGABYTE + 10)}"}`,
    '\u0000',
    '{"a":1}{"b":2}',
    'null',
    '"just a string"',
    '12345678901234567890',
    '',
  ),
  contentType: fc.constantFrom('application/json', 'application/json; charset=utf-16', 'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'),
});

/** One way to spoil a valid request. */
export type Mutation =
  | { kind: 'field'; pick: number; value: unknown }
  | { kind: 'body'; value: unknown }
  /** `encoded`: the value goes into the path as it is (already percent-encoded, or malformed on purpose). */
  | { kind: 'param'; value: string; encoded: boolean }
  | { kind: 'query'; value: string }
  | { kind: 'raw'; body: string; contentType: string };

export const mutations: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('field' as const), pick: fc.nat(), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('body' as const), value: hostileValue }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('param' as const), value: hostileText, encoded: fc.constant(false) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('param' as const), value: fc.constantFrom('a'.repeat(101), '%00', '%ZZ', '..%2F..%2Fetc', '..', '%2e%2e', '%C0%AE'), encoded: fc.constant(true) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('query' as const), value: hostileText }) },
  { weight: 2, arbitrary: rawBodies.map((raw) => ({ kind: 'raw' as const, ...raw })) },
);

/**
 * Cases every route gets whatever the random runs draw: a NUL byte and a number beyond 32 bits
 * in each of its first four fields (the probe's 500s), and a megabyte string.
 */
export const REQUIRED_CASES: Mutation[] = [0, 1, 2, 3].flatMap((pick): Mutation[] => [
  { kind: 'field', pick, value: 'a\u0000b' },
  { kind: 'field', pick, value: 2 ** 31 },
]).concat([{ kind: 'field', pick: 0, value: 'x'.repeat(MEGABYTE) }]);

/** A string in a URL; a lone surrogate becomes the bytes of one (not valid UTF-8). */
export function urlPart(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return '%ED%A0%80';
  }
}
