import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postToCheckedAddress } from '../../../server/services/webhook-post.ts';

/**
 * A delivery connects to the address that was checked, under the URL's own name: the Host header
 * and TLS's server name are the partner's, whatever the name would resolve to now. Loopback only.
 */

const heard: { headers: IncomingHttpHeaders; body: string }[] = [];
const receiver = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    heard.push({ headers: req.headers, body });
    res.statusCode = 202;
    res.end('x'.repeat(5000));
  });
});
// A TLS server with no certificate: it records the server name the client asked for, then ends
// the handshake (the lab's client must never accept a certificate that is not the partner's).
const serverNames: string[] = [];
const tlsReceiver = createTlsServer({
  SNICallback: (name, callback) => {
    serverNames.push(name);
    callback(new Error('no certificate here'));
  },
});
const portOf = (server: { address(): unknown }) => (server.address() as AddressInfo).port;
const OPTS = { timeoutMs: 10_000, answerBytes: 1000 };

beforeAll(async () => {
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  await new Promise<void>((resolve) => tlsReceiver.listen(0, '127.0.0.1', resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => receiver.close(() => resolve()));
  await new Promise<void>((resolve) => tlsReceiver.close(() => resolve()));
});

describe('postToCheckedAddress', () => {
  it('POSTs to the checked address with the URL’s Host header, and keeps only the start of the answer', async () => {
    const url = new URL(`http://partner.invalid:${portOf(receiver)}/lab-events?studio=7`);
    const answer = await postToCheckedAddress({ url, address: '127.0.0.1', family: 4 }, { 'content-type': 'application/json' }, '{"id":"e1"}', OPTS);
    expect(answer.statusCode).toBe(202);
    expect(answer.answer).toBe('x'.repeat(OPTS.answerBytes));
    expect(heard.at(-1)).toMatchObject({ body: '{"id":"e1"}', headers: { host: `partner.invalid:${portOf(receiver)}`, 'content-length': '11' } });
  });

  it('asks TLS for the partner’s name, not the address it connects to', async () => {
    const url = new URL(`https://partner.invalid:${portOf(tlsReceiver)}/lab-events`);
    await expect(postToCheckedAddress({ url, address: '127.0.0.1', family: 4 }, {}, '{}', OPTS)).rejects.toThrow(/before secure TLS connection was established/);
    expect(serverNames).toEqual(['partner.invalid']);
  });
});
