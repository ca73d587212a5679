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

/** Resolves a host name to every address it has now (node's dns.lookup; tests pass their own). */
export type ResolveHost = (host: string) => Promise<{ address: string; family: number }[]>;
export const resolveWithDns: ResolveHost = (host) => lookup(host, { all: true });

/** Where a delivery connects: the URL, and the one address that was checked for it. */
export interface CheckedTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/**
 * The address the lab will POST this URL to, or why it will not (its name resolves into the
 * lab's network). The POST must connect to this address and not resolve the name again: a
 * partner's DNS could answer a public address to this check and a private one a moment later.
 */
export async function checkWebhookTarget(text: string, production: boolean, resolveHost: ResolveHost): Promise<CheckedTarget | { refused: string }> {
  if (!webhookUrl(text, production)) return { refused: WEBHOOK_URL_RULE };
  const url = new URL(text);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await resolveHost(host);
  } catch (err) {
    return { refused: `Not sent: ${host} could not be resolved (${err instanceof Error ? err.message : String(err)}).` };
  }
  if (production && addresses.some((a) => isPrivate(a.address))) return { refused: `Not sent: ${host} resolves to a private network address.` };
  const [first] = addresses;
  if (!first) return { refused: `Not sent: ${host} could not be resolved (no address).` };
  return { url, address: first.address, family: first.family === 6 ? 6 : 4 };
}
