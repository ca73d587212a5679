import { describe, expect, it } from 'vitest';
import { checkWebhookTarget, webhookUrl, type ResolveHost } from '../../../server/services/webhook-url.ts';

/** Where a partner's webhook may point, and the address a delivery is pinned to (no connection is made here). */
describe('webhook URLs', () => {
  it('in production takes https only, and never an address of the lab’s own network', () => {
    expect(webhookUrl('https://partner.example.com/hook', true)).toBe('https://partner.example.com/hook');
    const refused = ['http://partner.example.com/hook', 'https://localhost/x', 'https://127.0.0.1/x', 'https://10.1.2.3/x', 'https://192.168.0.9/x', 'https://169.254.169.254/latest', 'https://[::1]/x', 'https://[fd00::1]/x'];
    expect(refused.filter((url) => webhookUrl(url, true) !== null)).toEqual([]);
    expect(webhookUrl('http://127.0.0.1:9999/x', false)).toBe('http://127.0.0.1:9999/x');
  });

  it('in production refuses a name that resolves into the lab’s network, and pins one it checked', async () => {
    const privateAnswer: ResolveHost = async () => [{ address: '203.0.113.7', family: 4 }, { address: '10.0.0.7', family: 4 }];
    expect(await checkWebhookTarget('https://partner.test/x', true, privateAnswer)).toEqual({ refused: 'Not sent: partner.test resolves to a private network address.' });
    const publicAnswer: ResolveHost = async () => [{ address: '203.0.113.7', family: 4 }];
    expect(await checkWebhookTarget('https://partner.test/x', true, publicAnswer)).toMatchObject({ address: '203.0.113.7', family: 4 });
    const unresolved: ResolveHost = async () => {
      throw new Error('getaddrinfo ENOTFOUND partner.test');
    };
    expect(await checkWebhookTarget('https://partner.test/x', true, unresolved)).toEqual({ refused: 'Not sent: partner.test could not be resolved (getaddrinfo ENOTFOUND partner.test).' });
    // An address in the URL is the address: nothing to resolve, so nothing to rebind.
    expect(await checkWebhookTarget('https://[2001:db8::5]/x', true, unresolved)).toMatchObject({ address: '2001:db8::5', family: 6 });
  });
});
