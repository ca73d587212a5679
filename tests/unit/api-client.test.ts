import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { apiRequest, setTokenSource, setUnauthorizedHandler } from '../../src/api/client.ts';
import { ApiError } from '../../src/api/errors.ts';
import { clearSession, currentToken, endRefusedSession, saveSession, useSession } from '../../src/api/session.ts';

const answer = { token: 'tok-1', intercom_user_hash: 'hash', email: 'ann@example.com', name: 'Ann', business_name: 'Studio', is_admin: false, guid: 'u-1' };
let requests: { url: string; init: RequestInit }[] = [];
// As the app shell does (src/main.tsx): calls carry the page's session's token.
setTokenSource(currentToken);

function respond(status: number, body: unknown) {
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    requests.push({ url, init });
    return new Response(typeof body === 'string' ? body : JSON.stringify(body), { status });
  });
}

beforeEach(() => {
  requests = [];
  clearSession();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setUnauthorizedHandler(() => {});
});

describe('apiRequest', () => {
  it('sends the token header, JSON and the idempotency key to /api/v2', async () => {
    saveSession(answer);
    respond(200, { ok: true });
    await expect(apiRequest('POST', '/things', { body: { a: 1 }, idempotencyKey: 'k-1' })).resolves.toEqual({ ok: true });
    const [req] = requests;
    expect(req?.url).toBe('/api/v2/things');
    expect(req?.init.headers).toMatchObject({ token: 'tok-1', 'content-type': 'application/json', 'idempotency-key': 'k-1' });
    expect(req?.init.body).toBe('{"a":1}');
    expect(req?.init.signal).toBeInstanceOf(AbortSignal);
  });

  it('sends no token on calls made before sign-in', async () => {
    saveSession(answer);
    respond(200, {});
    await apiRequest('POST', '/login', { auth: false, body: {} });
    expect(requests[0]?.init.headers).not.toHaveProperty('token');
  });

  it('turns an error body into an ApiError of kind server', async () => {
    respond(422, { error: { status: 422, class_name: 'ValidationError', developer_message: 'd', user_message: { message: 'Bad zip.' }, more_info: ['zip'] } });
    const err = await apiRequest('GET', '/x').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect(err).toMatchObject({ kind: 'server', status: 422, className: 'ValidationError', message: 'Bad zip.', moreInfo: ['zip'] });
  });

  it('keeps only the status of a response without an error body', async () => {
    respond(502, '<html>Bad gateway</html>');
    await expect(apiRequest('GET', '/x')).rejects.toMatchObject({ kind: 'http', status: 502 });
  });

  it('reports no response as a network failure', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });
    await expect(apiRequest('GET', '/x')).rejects.toMatchObject({ kind: 'network' });
  });

  it('a 401 on a signed-in call ends the session through the handler; a 401 at login does not', async () => {
    const onUnauthorized = vi.fn<(token: string) => void>(endRefusedSession);
    setUnauthorizedHandler(onUnauthorized);
    respond(401, { error: { status: 401, class_name: 'InvalidCredentials', developer_message: '', user_message: { message: 'no' }, more_info: [] } });
    await expect(apiRequest('POST', '/login', { auth: false })).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).not.toHaveBeenCalled();

    saveSession(answer);
    await expect(apiRequest('GET', '/lab_orders')).rejects.toMatchObject({ status: 401 });
    expect(onUnauthorized).toHaveBeenCalledExactlyOnceWith('tok-1');
    expect(useSession.getState()).toMatchObject({ session: null, loggedOut: true });
    expect(localStorage.getItem('token')).toBeNull();
  });

  it('calls refused together end the session once, and the logged-out notice stays', async () => {
    setUnauthorizedHandler(endRefusedSession);
    saveSession(answer);
    // Three calls of one screen, all sent with the session's token before any answer came back.
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    vi.stubGlobal('fetch', async () => {
      await gate;
      return new Response(JSON.stringify({ error: { status: 401, class_name: 'Unauthorized', developer_message: '', user_message: { message: 'no' }, more_info: [] } }), { status: 401 });
    });
    const calls = ['/users/u-1', '/lab_orders', '/credits'].map((path) => apiRequest('GET', path).catch((e: unknown) => e));
    release();
    await Promise.all(calls);
    expect(useSession.getState()).toMatchObject({ session: null, loggedOut: true });
  });

  it('a late refusal of an ended session does not end the next sign-in', async () => {
    setUnauthorizedHandler(endRefusedSession);
    saveSession(answer);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    respond(401, { error: { status: 401, class_name: 'Unauthorized', developer_message: '', user_message: { message: 'no' }, more_info: [] } });
    const stubbed = globalThis.fetch;
    vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
      await gate;
      return stubbed(url, init);
    });
    const late = apiRequest('GET', '/lab_orders').catch((e: unknown) => e);
    clearSession();
    saveSession({ ...answer, token: 'tok-2' });
    release();
    await late;
    expect(useSession.getState().session?.token).toBe('tok-2');
  });
});

describe('the session in local storage', () => {
  it('is signed in only with token, email and identity hash all present', () => {
    saveSession(answer);
    expect(useSession.getState().session?.email).toBe('ann@example.com');
    expect(localStorage.getItem('identity-hash')).toBe('hash');
    clearSession();
    expect(useSession.getState().session).toBeNull();
  });
});
