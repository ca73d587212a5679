import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import type { CheckedTarget } from './webhook-url.ts';

/**
 * One POST of a webhook event to the address that was checked for its URL (webhook-url.ts), not
 * to whatever the name resolves to by the time the connection opens (DNS rebinding). The name
 * stays the URL's: the Host header is the URL's host, and TLS's server name (SNI) and certificate
 * check follow the Host header, so an https partner is verified as its own name.
 */
export function postToCheckedAddress(
  target: CheckedTarget,
  headers: OutgoingHttpHeaders,
  body: string,
  opts: { timeoutMs: number; answerBytes: number },
): Promise<{ statusCode: number; answer: string }> {
  const { url, address, family } = target;
  // Every connection of this request resolves to the checked address, whatever name it asks for.
  const pinned = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  }) as unknown as LookupFunction;
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const req = send(
      {
        method: 'POST',
        host: url.hostname.replace(/^\[|\]$/g, ''),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        headers: { ...headers, host: url.host, 'content-length': Buffer.byteLength(body) },
        lookup: pinned,
        // No pooled connection: a kept-alive socket may lead to an address checked for an earlier
        // delivery, and a partner's events are too few for reuse to matter.
        agent: false,
        signal: AbortSignal.timeout(opts.timeoutMs),
      },
      (res) => {
        const kept: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size >= opts.answerBytes) return;
          kept.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, answer: Buffer.concat(kept).subarray(0, opts.answerBytes).toString('utf8') }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
