import { Page } from '../../ui/page.js';
import { MfaSettings } from './mfa-settings.js';
import { SecuritySettings } from './security-settings.js';

export function PoliciesPage() {
  return (
    <Page
      title="Policies"
      description="Token and session lifetimes, signing-key rotation and multi-factor sign-in, for every application."
    >
      <SecuritySettings />
      <MfaSettings />
    </Page>
  );
}
