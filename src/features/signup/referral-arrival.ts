/** A code from a /refer/:id link, kept for step 2 of sign-up (this tab only). */
const KEY = 'referral-code';

export const rememberReferralCode = (code: string) => sessionStorage.setItem(KEY, code);
export const rememberedReferralCode = () => sessionStorage.getItem(KEY) ?? '';
export const forgetReferralCode = () => sessionStorage.removeItem(KEY);
