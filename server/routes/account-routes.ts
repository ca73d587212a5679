import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { accountEndpoints as account, type Profile } from '../../src/contract/account.ts';
import type { ServerDeps } from '../deps.ts';
import { routeOf } from '../http/contract-route.ts';
import { addAddress, changeEmail, changePassword, removeAddress, setDefaultAddress, updateBasicInformation } from '../services/account-service.ts';
import { profileJson } from '../services/profile-cache.ts';
import { confirmCertificate } from '../services/certificate-service.ts';
import { adminActionsOf, adminUpdatePhotographer } from '../services/photographers-service.ts';
import { myReferrals, photographerCredit, updateOwnReferralCode } from '../services/referral-service.ts';
import { confirmShopConnection, connectShop, declineShopConnection } from '../services/shop-connection-service.ts';
import { requestTaxReport } from '../services/tax-report-service.ts';

/** The account page, the credit page and the shop connections (docs/accounts.md §2, §7). */
export const accountRoutes =
  (deps: ServerDeps): FastifyPluginAsyncZod =>
  async (app) => {
    // Sent as the JSON the service wrote (kept per account version, profile-cache.ts): the API
    // tests parse every answer with the contract's profile schema.
    app.route({
      ...routeOf(account.profile),
      handler: async (request, reply) => reply.type('application/json; charset=utf-8').send((await profileJson(deps, request.actor)) as unknown as Profile),
    });

    app.route({
      ...routeOf(account.updateUser),
      handler: (request) => {
        const body = request.body;
        if ('type' in body) return adminUpdatePhotographer(deps, request.actor, request.params.guid, body);
        if ('referral_code' in body) return updateOwnReferralCode(deps, request.actor, request.params.guid, body.referral_code);
        if ('password' in body) return changePassword(deps, request.actor, request.params.guid, body);
        return updateBasicInformation(deps, request.actor, request.params.guid, body);
      },
    });

    app.route({ ...routeOf(account.addAddress), handler: (request) => addAddress(deps, request.actor, request.body, request.changeGuid('address')) });
    app.route({ ...routeOf(account.setDefaultAddress), handler: (request) => setDefaultAddress(deps, request.actor, request.body.make_primary) });
    app.route({ ...routeOf(account.removeAddress), handler: (request) => removeAddress(deps, request.actor, request.body.selected_item) });
    app.route({ ...routeOf(account.changeEmail), handler: (request) => changeEmail(deps, request.actor, request.body) });

    const shopLink = routeOf(account.connectShop);
    app.route({ ...shopLink, config: { ...shopLink.config, rateLimit: { max: deps.config.lookupRateLimit, timeWindow: 60_000 } }, handler: (request) => connectShop(deps, request.body) });
    app.route({ ...routeOf(account.confirmShopConnection), handler: (request) => confirmShopConnection(deps, request.actor, request.params.id) });
    app.route({ ...routeOf(account.declineShopConnection), handler: (request) => declineShopConnection(deps, request.actor, request.params.id) });

    app.route({ ...routeOf(account.generateTaxReport), handler: (request) => requestTaxReport(deps, request.actor, request.body.year) });
    app.route({ ...routeOf(account.blanketCertificate), handler: (request) => confirmCertificate(deps, request.actor, request.body) });

    app.route({ ...routeOf(account.referrals), handler: (request) => myReferrals(deps, request.actor) });
    app.route({
      ...routeOf(account.photographerCredit),
      handler: async (request) => {
        const page = await photographerCredit(deps, request.actor, request.params.guid);
        if (!request.actor?.user.isAdmin) return page;
        return { data: { ...page.data, admin_actions: await adminActionsOf(deps, request.params.guid) } };
      },
    });
  };
