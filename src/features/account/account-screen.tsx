import { useEffect, useState } from 'react';
import { getProfile, type Profile } from '../../api/account.ts';
import { errorText } from '../../api/errors.ts';
import { AddressesSection } from './addresses-section.tsx';
import { BasicInfoSection } from './basic-info-section.tsx';
import { CardsSection } from './cards-section.tsx';
import { CertificateSection } from './certificate-section.tsx';
import { ChangeEmailSection } from './change-email-section.tsx';
import { SalesHistorySection } from './sales-history-section.tsx';
import { PackingSlipSection } from './packing-slip-section.tsx';
import { ShopConnectionSection } from './shop-connection-section.tsx';
import { StatusMailsSection } from './status-mails-section.tsx';
import { WebhooksSection } from './webhooks-section.tsx';

/** /account (docs/accounts.md §2). A 401 anywhere here signs out through the API client's rule. */
export function AccountScreen() {
  const [profile, setProfile] = useState<Profile | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    getProfile().then(setProfile, (err: unknown) => setError(errorText(err)));
  }, []);

  if (error) return <p role="alert">ERROR LOADING: {error}</p>;
  if (!profile) return <p role="status">loading</p>;
  return (
    <div className="account">
      <h1>ACCOUNT</h1>
      <p className="muted">
        Signed in as {profile.user.email}
        {profile.user.referral_code ? ` · Your referral code: ${profile.user.referral_code}` : ''}
      </p>
      <BasicInfoSection profile={profile} onSaved={setProfile} />
      <AddressesSection profile={profile} onSaved={setProfile} />
      <ChangeEmailSection />
      <CardsSection profile={profile} onSaved={setProfile} />
      <CertificateSection profile={profile} onSaved={setProfile} />
      <SalesHistorySection profile={profile} onSaved={setProfile} />
      <ShopConnectionSection profile={profile} onSaved={setProfile} />
      <PackingSlipSection profile={profile} />
      <StatusMailsSection />
      <WebhooksSection />
    </div>
  );
}
