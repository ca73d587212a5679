import { describe, expect, it } from 'vitest';
import { PUBLIC_ROUTES, ROUTES } from '../../src/app/routes.ts';
import { matchRoutes, rankRoutes, type RouteObject } from '../../src/ui/route-match.ts';

// The app's paths in the shape of its table (src/app/router.tsx, which needs the whole shell to
// load): a root, the public layout, then the auth guard and the signed-in layout, in that order.
const leaves = (paths: string[]): RouteObject[] => paths.map((path) => ({ path }));
const table: RouteObject[] = [
  {
    children: [
      { children: leaves([...PUBLIC_ROUTES]) },
      { children: [{ children: [...leaves(Object.values(ROUTES).filter((path) => !PUBLIC_ROUTES.includes(path))), { path: '*' }] }] },
    ],
  },
];
// Each address must open the route whose pattern it was written for.
const ranked = rankRoutes(table);
const patternAt = (pathname: string) => {
  const match = matchRoutes(ranked, pathname);
  return match ? { path: match.chain.at(-1)?.path, params: match.params } : null;
};

describe('the route table', () => {
  it('opens each screen at its address, with its parameters', () => {
    expect(patternAt('/')).toEqual({ path: ROUTES.home, params: {} });
    expect(patternAt('/lab-orders')).toEqual({ path: ROUTES.labOrders, params: {} });
    expect(patternAt('/lab-orders/g-1')).toEqual({ path: ROUTES.orderDetail, params: { id: 'g-1' } });
    expect(patternAt('/lab-orders/g-1/edit/order-builder/line-item/li-2')).toEqual({ path: ROUTES.lineItemEdit, params: { id: 'g-1', line_item_id: 'li-2' } });
    expect(patternAt('/lab-orders/a/merge-order/b/review')).toEqual({ path: ROUTES.mergeReview, params: { startOrderId: 'a', endOrderId: 'b' } });
    expect(patternAt('/refer/CODE%2F7')).toEqual({ path: ROUTES.refer, params: { id: 'CODE/7' } });
  });

  it('prefers a named segment to a parameter, whatever the order of the table', () => {
    expect(patternAt('/lab-orders/upload')?.path).toBe(ROUTES.newOrder);
    const flat = rankRoutes([{ path: '/lab-orders/:id' }, { path: '/lab-orders/upload' }, { path: '*' }]);
    expect(matchRoutes(flat, '/lab-orders/upload')?.chain[0]?.path).toBe('/lab-orders/upload');
    expect(matchRoutes(flat, '/lab-orders/x')?.chain[0]?.path).toBe('/lab-orders/:id');
  });

  it('takes a trailing slash either way and letters in either case', () => {
    expect(patternAt('/lab-orders/g-1/checkout-final')?.path).toBe(ROUTES.checkoutFinal);
    expect(patternAt('/lab-orders/g-1/checkout-final/')?.path).toBe(ROUTES.checkoutFinal);
    expect(patternAt('/Lab-Orders/')?.path).toBe(ROUTES.labOrders);
  });

  it('sends any other address to the page that says there is nothing there', () => {
    expect(patternAt('/no/such/page')).toEqual({ path: '*', params: { '*': 'no/such/page' } });
    expect(patternAt('/lab-orders/g-1/unknown')?.path).toBe('*');
  });

  it('keeps the layouts around a screen in the order of the table', () => {
    const chain = matchRoutes(ranked, '/lab-orders/g-1/review')?.chain ?? [];
    // The root, the auth guard, the signed-in layout, then the screen.
    expect(chain).toHaveLength(4);
    expect(chain.slice(0, 3).every((route) => route.path === undefined)).toBe(true);
    expect(matchRoutes(ranked, ROUTES.login)?.chain).toHaveLength(3);
  });
});
