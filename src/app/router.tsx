import { lazy, type ComponentType, type ReactElement } from 'react';
import type { RouteObject } from '../ui/router.tsx';
import { ROUTES } from './routes.ts';
import { startFirstOrdersPage } from '../features/orders/first-page.ts';
import { PlannedScreen } from './planned-screen.tsx';
import { PublicLayout } from './public-layout.tsx';
import { RequireAuth } from './require-auth.tsx';
import { ScreenFrame } from './screen-frame.tsx';
import { trackScreenLoad } from './screen-loads.ts';
import { SignedInLayout } from './signed-in-layout.tsx';

/**
 * A lazy screen: its code is fetched the first time its route matches, so each area ships its
 * own chunk and /login never pays for the account page (docs/performance-notes.md §8). The service worker
 * precaches every chunk, so a lazy route still opens offline. <AppRoutes> (src/app/app-routes.tsx)
 * shows 'loading' while the first screen's code arrives and keeps the current screen, inert and
 * marked busy (src/app/screen-frame.tsx), while a later one's does (navigations are transitions).
 */
function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): ReactElement {
  const Screen = lazy(() => trackScreenLoad(load().then((module): { default: ComponentType } => ({ default: module[name] }))));
  return (
    <ScreenFrame>
      <Screen />
    </ScreenFrame>
  );
}

// The orders list's code, shared by / and /lab-orders (one chunk, fetched once).
const OrdersList = lazy(() => {
  // The first page's request and the screen's code download side by side.
  startFirstOrdersPage();
  return trackScreenLoad(import('../features/orders/orders-list-screen.tsx').then((m) => ({ default: m.OrdersListScreen })));
});
// Keys make a click on ORDERS from / load the list afresh.
const ordersList = (key: string) => (
  <ScreenFrame key={key}>
    <OrdersList />
  </ScreenFrame>
);

const planned = (title: string, purpose: string) => (
  <ScreenFrame>
    <PlannedScreen title={title} purpose={purpose} />
  </ScreenFrame>
);

/** The complete route table of docs/accounts.md §2 and docs/orders.md §2. */
export const routes: RouteObject[] = [
  {
    children: [
      // Public routes.
      {
        element: <PublicLayout />,
        children: [
          { path: ROUTES.login, element: screen(() => import('../features/auth/login-screen.tsx'), 'LoginScreen') },
          { path: ROUTES.signupStep1, element: screen(() => import('../features/signup/signup-step1-screen.tsx'), 'SignupStep1Screen') },
          { path: ROUTES.refer, element: screen(() => import('../features/signup/signup-step1-screen.tsx'), 'SignupStep1Screen') },
          { path: ROUTES.shopifyConnect, element: screen(() => import('../features/shop-connect/shop-connect-screen.tsx'), 'ShopConnectScreen') },
          { path: ROUTES.forgotPassword, element: screen(() => import('../features/auth/forgot-password-screen.tsx'), 'ForgotPasswordScreen') },
          {
            path: ROUTES.forgotPasswordConfirmation,
            element: screen(() => import('../features/auth/forgot-password-confirmation-screen.tsx'), 'ForgotPasswordConfirmationScreen'),
          },
          { path: ROUTES.resetPassword, element: screen(() => import('../features/auth/reset-password-screen.tsx'), 'ResetPasswordScreen') },
        ],
      },
      {
        element: <RequireAuth />,
        children: [
          {
            element: <PublicLayout />,
            children: [
              // Sign-up steps after the account exists: signed in, without the navigation bar.
              { path: ROUTES.signupStep2, element: screen(() => import('../features/signup/signup-step2-screen.tsx'), 'SignupStep2Screen') },
              { path: ROUTES.signupStep3, element: screen(() => import('../features/signup/signup-step3-screen.tsx'), 'SignupStep3Screen') },
              {
                path: ROUTES.signupConfirmation,
                element: screen(() => import('../features/signup/signup-confirmation-screen.tsx'), 'SignupConfirmationScreen'),
              },
            ],
          },
          {
            element: <SignedInLayout />,
            children: [
              { path: ROUTES.home, element: ordersList('home') },
              { path: ROUTES.labOrders, element: ordersList('lab-orders') },
              { path: ROUTES.account, element: screen(() => import('../features/account/account-screen.tsx'), 'AccountScreen') },
              { path: ROUTES.credit, element: screen(() => import('../features/credit/credit-screen.tsx'), 'CreditScreen') },
              { path: ROUTES.calculate, element: screen(() => import('../features/calculator/calculator-screen.tsx'), 'CalculatorScreen') },
              { path: ROUTES.priceLists, element: screen(() => import('../features/price-lists/price-lists-screen.tsx'), 'PriceListsScreen') },
              { path: ROUTES.cartPreview, element: screen(() => import('../features/cart-preview/cart-preview-screen.tsx'), 'CartPreviewScreen') },
              { path: ROUTES.apiInvoices, element: screen(() => import('../features/api-invoices/api-invoices-screen.tsx'), 'ApiInvoicesScreen') },
              { path: ROUTES.photographer, element: screen(() => import('../features/credit/credit-screen.tsx'), 'CreditScreen') },
              { path: ROUTES.photographers, element: screen(() => import('../features/photographers/photographers-screen.tsx'), 'PhotographersScreen') },
              { path: ROUTES.discountCodes, element: screen(() => import('../features/discount-codes/discount-codes-screen.tsx'), 'DiscountCodesScreen') },
              { path: ROUTES.orderThanks, element: screen(() => import('../features/checkout/order-thanks-screen.tsx'), 'OrderThanksScreen') },
              // The form, the upload screen and its worker load only on their routes.
              { path: ROUTES.newOrder, element: screen(() => import('../features/orders-new/new-order-screen.tsx'), 'NewOrderScreen') },
              { path: ROUTES.uploadProgress, element: screen(() => import('../features/upload/upload-progress-screen.tsx'), 'UploadProgressScreen') },
              { path: ROUTES.orderBuilder, element: screen(() => import('../features/order-builder/order-builder-screen.tsx'), 'OrderBuilderScreen') },
              { path: ROUTES.lineItemEdit, element: screen(() => import('../features/order-builder/order-builder-screen.tsx'), 'LineItemEditScreen') },
              { path: ROUTES.cartReview, element: screen(() => import('../features/cart-review/cart-review-screen.tsx'), 'CartReviewScreen') },
              { path: ROUTES.mergeReview, element: screen(() => import('../features/merge-review/merge-review-screen.tsx'), 'MergeReviewScreen') },
              // Checkout, and with it the card field and the payment provider's script, loads only on its routes.
              { path: ROUTES.checkoutDetails, element: screen(() => import('../features/checkout/checkout-details-screen.tsx'), 'CheckoutDetailsScreen') },
              { path: ROUTES.checkoutFinal, element: screen(() => import('../features/checkout/checkout-final-screen.tsx'), 'CheckoutFinalScreen') },
              { path: ROUTES.orderDetail, element: screen(() => import('../features/order-detail/order-detail-screen.tsx'), 'OrderDetailScreen') },
              { path: '*', element: planned('PAGE NOT FOUND', 'There is no page at this address.') },
            ],
          },
        ],
      },
    ],
  },
];
