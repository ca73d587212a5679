import { createBrowserRouter, type RouteObject } from 'react-router-dom';
import { ROUTES } from '../domain/paths.ts';
import { ForgotPasswordConfirmationScreen } from '../features/auth/forgot-password-confirmation-screen.tsx';
import { AccountScreen } from '../features/account/account-screen.tsx';
import { ForgotPasswordScreen } from '../features/auth/forgot-password-screen.tsx';
import { LoginScreen } from '../features/auth/login-screen.tsx';
import { ResetPasswordScreen } from '../features/auth/reset-password-screen.tsx';
import { OrderThanksScreen } from '../features/checkout/order-thanks-screen.tsx';
import { CalculatorScreen } from '../features/calculator/calculator-screen.tsx';
import { CreditScreen } from '../features/credit/credit-screen.tsx';
import { ShopConnectScreen } from '../features/shop-connect/shop-connect-screen.tsx';
import { OrdersListScreen } from '../features/orders/orders-list-screen.tsx';
import { PriceListsScreen } from '../features/price-lists/price-lists-screen.tsx';
import { SignupConfirmationScreen } from '../features/signup/signup-confirmation-screen.tsx';
import { SignupStep1Screen } from '../features/signup/signup-step1-screen.tsx';
import { SignupStep2Screen } from '../features/signup/signup-step2-screen.tsx';
import { SignupStep3Screen } from '../features/signup/signup-step3-screen.tsx';
import { PlannedScreen } from './planned-screen.tsx';
import { RequireAuth } from './require-auth.tsx';
import { RouteError } from './route-error.tsx';
import { SignedInLayout } from './signed-in-layout.tsx';

const planned = (title: string, purpose: string) => <PlannedScreen title={title} purpose={purpose} />;

/** The complete route table of accounts.md §2 and orders.md §2. */
export const routes: RouteObject[] = [
  {
    errorElement: <RouteError />,
    children: [
      // Public routes.
      { path: ROUTES.login, element: <LoginScreen /> },
      { path: ROUTES.signupStep1, element: <SignupStep1Screen /> },
      { path: ROUTES.refer, element: <SignupStep1Screen /> },
      { path: ROUTES.shopifyConnect, element: <ShopConnectScreen /> },
      { path: ROUTES.forgotPassword, element: <ForgotPasswordScreen /> },
      { path: ROUTES.forgotPasswordConfirmation, element: <ForgotPasswordConfirmationScreen /> },
      { path: ROUTES.resetPassword, element: <ResetPasswordScreen /> },
      {
        element: <RequireAuth />,
        children: [
          // Sign-up steps after the account exists: signed in, without the navigation bar.
          { path: ROUTES.signupStep2, element: <SignupStep2Screen /> },
          { path: ROUTES.signupStep3, element: <SignupStep3Screen /> },
          { path: ROUTES.signupConfirmation, element: <SignupConfirmationScreen /> },
          {
            element: <SignedInLayout />,
            children: [
              // Keys make a click on ORDERS from / load the list afresh.
              { path: ROUTES.home, element: <OrdersListScreen key="home" /> },
              { path: ROUTES.labOrders, element: <OrdersListScreen key="lab-orders" /> },
              { path: ROUTES.account, element: <AccountScreen /> },
              { path: ROUTES.credit, element: <CreditScreen /> },
              { path: ROUTES.calculate, element: <CalculatorScreen /> },
              { path: ROUTES.priceLists, element: <PriceListsScreen /> },
              { path: ROUTES.cartPreview, element: planned('CART PREVIEW', 'See each line item on its paper.') },
              { path: ROUTES.apiInvoices, element: planned('API INVOICES', 'Invoices of orders placed through the API.') },
              { path: ROUTES.photographer, element: <CreditScreen /> },
              { path: ROUTES.photographers, element: planned('PHOTOGRAPHERS', 'Every photographer of the lab.') },
              { path: ROUTES.orderThanks, element: <OrderThanksScreen /> },
              // Issue 10: lazy, so the form, the upload screen and its worker load only on their routes.
              {
                path: ROUTES.newOrder,
                lazy: async () => ({ Component: (await import('../features/orders-new/new-order-screen.tsx')).NewOrderScreen }),
              },
              {
                path: ROUTES.uploadProgress,
                lazy: async () => ({ Component: (await import('../features/upload/upload-progress-screen.tsx')).UploadProgressScreen }),
              },
              { path: ROUTES.orderBuilder, element: planned('ORDER BUILDER', 'Choose paper, size and finishing for each photo.') },
              { path: ROUTES.lineItemEdit, element: planned('EDIT LINE ITEM', 'Change one line item of this order.') },
              { path: ROUTES.cartReview, element: planned('CART', 'Review the line items of this order.') },
              { path: ROUTES.mergeReview, element: planned('MERGE ORDERS', 'Looks good?') },
              { path: ROUTES.checkoutDetails, element: planned('CHECKOUT', 'Shipping address, card, discount and credit.') },
              { path: ROUTES.checkoutFinal, element: planned('PLACE ORDER', 'Check everything once more and place the order.') },
              { path: ROUTES.orderDetail, element: planned('ORDER', 'The order, its line items and its status.') },
              { path: '*', element: planned('PAGE NOT FOUND', 'There is no page at this address.') },
            ],
          },
        ],
      },
    ],
  },
];

export const router = createBrowserRouter(routes);
