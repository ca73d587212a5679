import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { WEBHOOK_URL_RULE } from '../../src/domain/partner-webhooks.ts';

/**
 * Where a partner's webhook may point. In production: https only, and never the lab's own
 * network (loopback, private, link-local and unique-local addresses), or a partner could make the
 * lab's server call its neighbours. Outside production, http and loopback are allowed so that a
 * developer's receiver on this machine (and the tests') can be reached.
 */
const PRIVATE = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv4');
for (const [net, bits] of [
  ['::1', 128],
  ['::', 128],
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  PRIVATE.addSubnet(net, bits, 'ipv6');

const isPrivate = (address: string) => PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');

/** The URL as registered, or null when it breaks the rule (the caller answers WEBHOOK_URL_RULE). */
export function webhookUrl(text: string, production: boolean): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  const schemeOk = url.protocol === 'https:' || (!production && url.protocol === 'http:');
  // Credentials in the URL would sit in the lab's database and logs.
  if (!schemeOk || url.username || url.password || !url.hostname) return null;
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (production && (host === 'localhost' || (isIP(host) && isPrivate(host)))) return null;
  return url.toString();
}

/** Why the lab will not POST to this URL now (its name resolves into the lab's network), or null. */
export async function unsafeWebhookTarget(text: string, production: boolean): Promise<string | null> {
  if (!webhookUrl(text, production)) return WEBHOOK_URL_RULE;
  if (!production) return null;
  const host = new URL(text).hostname.replace(/^\[|\]$/g, '');
  try {
    const addresses = await lookup(host, { all: true });
    if (addresses.some((a) => isPrivate(a.address))) return `Not sent: ${host} resolves to a private network address.`;
  } catch (err) {
    return `Not sent: ${host} could not be resolved (${err instanceof Error ? err.message : String(err)}).`;
  }
  return null;
}
