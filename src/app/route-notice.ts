import { useEffect } from 'react';
import { useLocation, useNavigate } from '../ui/router.tsx';
import { NOTICE_PARAM, noticeText, type NoticeFlag } from './routes.ts';
import { toast } from '../ui/toasts/toast-store.ts';

const KIND: Record<NoticeFlag, 'error' | 'info'> = { no_line_items: 'error', bad_status: 'error', cart_cleared: 'info', missing_address: 'error' };

/**
 * The notice a redirect carries in `?notice=` (docs/orders.md §2: 'You have no line items!', bad
 * status, cart cleared), shown as a toast on whichever screen it lands on, then dropped from the
 * address so a reload does not repeat it. Runs after the landing screen's own effects, so a
 * screen that acts on the flag (the builder reloads on cart_cleared) still sees it.
 */
export function useRouteNotice(): void {
  const location = useLocation();
  const navigate = useNavigate();
  useEffect(() => {
    const params = new URLSearchParams(location.search);
    const flag = params.get(NOTICE_PARAM);
    const text = noticeText(flag);
    if (!flag || !text) return;
    toast[KIND[flag as NoticeFlag]](text);
    params.delete(NOTICE_PARAM);
    const search = params.toString();
    void navigate({ pathname: location.pathname, search: search ? `?${search}` : '', hash: location.hash }, { replace: true, state: location.state as unknown });
  }, [location, navigate]);
}
