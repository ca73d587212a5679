import { describe, expect, it } from 'vitest';
import { isCatalogueRead, isOwnThumbnail, type RouteRequest } from '../../src/offline/sw-routes.ts';

/**
 * The service worker's runtime routes (workers/sw.ts) take GETs of the app's own origin only:
 * what the browser sends to the S3 store (the upload worker's PUTs, the presigned thumbnails) is
 * never answered, cached or queued by the worker.
 */
const APP = 'https://orders.lab.example';
const STORE = 'https://lab-prints.s3.eu-central-1.amazonaws.com';
const SIGNED = 'X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Expires=900&X-Amz-Signature=abc';

const req = (href: string, method: string, destination = ''): RouteRequest => ({ url: new URL(href), request: { method, destination } });
const routes = { catalogue: isCatalogueRead, thumbnails: isOwnThumbnail };
const taken = (r: RouteRequest) => Object.entries(routes).filter(([, match]) => match(r, APP)).map(([name]) => name);

describe('the service worker’s runtime routes', () => {
  it.each([
    ['a photo’s single PUT to the bucket', req(`${STORE}/incoming/photos/p1.jpg?${SIGNED}`, 'PUT')],
    ['a multipart part PUT to the bucket', req(`${STORE}/incoming/photos/p2.jpg?partNumber=3&uploadId=u1&${SIGNED}`, 'PUT')],
    ['a path-style PUT to S3_ENDPOINT', req(`http://127.0.0.1:9000/photos/incoming/photos/p3.jpg?${SIGNED}`, 'PUT')],
    ['a presigned bucket thumbnail', req(`${STORE}/photos/o1/thumbnails/p1.jpg?${SIGNED}`, 'GET', 'image')],
    ['a presigned bucket preview', req(`${STORE}/photos/o1/previews/p1.jpg?${SIGNED}`, 'GET', 'image')],
    ['a download from the bucket', req(`${STORE}/orders/o1/order.zip?${SIGNED}`, 'GET')],
    ['a store on a path that looks like the catalogue', req(`${STORE}/api/v2/papers_with_details`, 'GET')],
    // The local store's own PUTs are the lab's origin, and still never a route's.
    ['a PUT to the local store', req(`${APP}/storage/incoming/photos/p1.jpg?signature=abc`, 'PUT')],
    ['a PUT to a thumbnail path of the app', req(`${APP}/storage/photos/o1/thumbnails/p1.jpg`, 'PUT', 'image')],
  ])('leaves %s to the network', (_case, r) => {
    expect(taken(r)).toEqual([]);
  });

  it('keeps the lab’s own thumbnails and catalogue reads', () => {
    expect(taken(req(`${APP}/storage/photos/o1/thumbnails/p1.jpg?expires=1&signature=abc`, 'GET', 'image'))).toEqual(['thumbnails']);
    expect(taken(req(`${APP}/api/v2/papers_with_details`, 'GET'))).toEqual(['catalogue']);
    expect(taken(req(`${APP}/api/v2/papers_with_details`, 'POST'))).toEqual([]);
  });
});
