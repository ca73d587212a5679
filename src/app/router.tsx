import type { ComponentType } from 'react';
import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { ROUTES } from '../domain/paths.ts';
import { startFirstOrdersPage } from '../features/orders/first-page.ts';
import { PlannedScreen } from './planned-screen.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RouteError } from './route-error.tsx';
import { RouteLoading } from './route-loading.tsx';
import { SignedInLayout } from './signed-in-layout.tsx';

/**
 * A lazy route: the screen's code is fetched the first time the route matches, so each area
 * ships its own chunk and /login never pays for the account page (DESIGN.md §6a). The service
 * worker precaches every chunk, so a lazy route still opens offline.
 */
function screen<K extends string>(load: () => Promise<Record<K, ComponentType>>, name: K): RouteObject['lazy'] {
  return async () => ({ Component: (await load())[name] });
}

const ordersList = (key: string): RouteObject['lazy'] => async () => {
  // The first page's request and the screen's code download side by side.
  startFirstOrdersPage();
  const { OrdersListScreen } = await import('../features/orders/orders-list-screen.tsx');
  // Keys make a click on ORDERS from / load the list afresh.
  return { element: <OrdersListScreen key={key} /> };
};

const planned = (title: string, purpose: string) => <PlannedScreen title={title} purpose={purpose} />;

/** The complete route table of accounts.md §2 and orders.md §2. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    // Shown while the first screen's code arrives (accounts.md §2: loading states show 'loading').
    hydrateFallbackElement: <RouteLoading />,
    children: [
      // Public routes.
      { path: ROUTES.login, lazy: screen(() => import('../features/auth/login-screen.tsx'), 'LoginScreen') },
      { path: ROUTES.signupStep1, lazy: screen(() => import('../features/signup/signup-step1-screen.tsx'), 'SignupStep1Screen') },
      { path: ROUTES.refer, lazy: screen(() => import('../features/signup/signup-step1-screen.tsx'), 'SignupStep1Screen') },
      { path: ROUTES.shopifyConnect, lazy: screen(() => import('../features/shop-connect/shop-connect-screen.tsx'), 'ShopConnectScreen') },
      { path: ROUTES.forgotPassword, lazy: screen(() => import('../features/auth/forgot-password-screen.tsx'), 'ForgotPasswordScreen') },
      {
        path: ROUTES.forgotPasswordConfirmation,
        lazy: screen(() => import('../features/auth/forgot-password-confirmation-screen.tsx'), 'ForgotPasswordConfirmationScreen'),
      },
      { path: ROUTES.resetPassword, lazy: screen(() => import('../features/auth/reset-password-screen.tsx'), 'ResetPasswordScreen') },
      {
        element: <RequireAuth />,
        children: [
          // Sign-up steps after the account exists: signed in, without the navigation bar.
          { path: ROUTES.signupStep2, lazy: screen(() => import('../features/signup/signup-step2-screen.tsx'), 'SignupStep2Screen') },
          { path: ROUTES.signupStep3, lazy: screen(() => import('../features/signup/signup-step3-screen.tsx'), 'SignupStep3Screen') },
          {
            path: ROUTES.signupConfirmation,
            lazy: screen(() => import('../features/signup/signup-confirmation-screen.tsx'), 'SignupConfirmationScreen'),
          },
          {
            element: <SignedInLayout />,
            children: [
              { path: ROUTES.home, lazy: ordersList('home') },
              { path: ROUTES.labOrders, lazy: ordersList('lab-orders') },
              { path: ROUTES.account, lazy: screen(() => import('../features/account/account-screen.tsx'), 'AccountScreen') },
              { path: ROUTES.credit, lazy: screen(() => import('../features/credit/credit-screen.tsx'), 'CreditScreen') },
              { path: ROUTES.calculate, lazy: screen(() => import('../features/calculator/calculator-screen.tsx'), 'CalculatorScreen') },
              { path: ROUTES.priceLists, lazy: screen(() => import('../features/price-lists/price-lists-screen.tsx'), 'PriceListsScreen') },
              { path: ROUTES.cartPreview, lazy: screen(() => import('../features/cart-preview/cart-preview-screen.tsx'), 'CartPreviewScreen') },
              { path: ROUTES.apiInvoices, lazy: screen(() => import('../features/api-invoices/api-invoices-screen.tsx'), 'ApiInvoicesScreen') },
              { path: ROUTES.photographer, lazy: screen(() => import('../features/credit/credit-screen.tsx'), 'CreditScreen') },
              { path: ROUTES.photographers, lazy: screen(() => import('../features/photographers/photographers-screen.tsx'), 'PhotographersScreen') },
              { path: ROUTES.orderThanks, lazy: screen(() => import('../features/checkout/order-thanks-screen.tsx'), 'OrderThanksScreen') },
              // The form, the upload screen and its worker load only on their routes.
              { path: ROUTES.newOrder, lazy: screen(() => import('../features/orders-new/new-order-screen.tsx'), 'NewOrderScreen') },
              { path: ROUTES.uploadProgress, lazy: screen(() => import('../features/upload/upload-progress-screen.tsx'), 'UploadProgressScreen') },
              { path: ROUTES.orderBuilder, lazy: screen(() => import('../features/order-builder/order-builder-screen.tsx'), 'OrderBuilderScreen') },
              { path: ROUTES.lineItemEdit, lazy: screen(() => import('../features/order-builder/order-builder-screen.tsx'), 'LineItemEditScreen') },
              { path: ROUTES.cartReview, lazy: screen(() => import('../features/cart-review/cart-review-screen.tsx'), 'CartReviewScreen') },
              { path: ROUTES.mergeReview, lazy: screen(() => import('../features/merge-review/merge-review-screen.tsx'), 'MergeReviewScreen') },
              // Checkout, and with it the card field and the payment provider's script, loads only on its routes.
              { path: ROUTES.checkoutDetails, lazy: screen(() => import('../features/checkout/checkout-details-screen.tsx'), 'CheckoutDetailsScreen') },
              { path: ROUTES.checkoutFinal, lazy: screen(() => import('../features/checkout/checkout-final-screen.tsx'), 'CheckoutFinalScreen') },
              { path: ROUTES.orderDetail, lazy: screen(() => import('../features/order-detail/order-detail-screen.tsx'), 'OrderDetailScreen') },
              { path: '*', element: planned('PAGE NOT FOUND', 'There is no page at this address.') },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
