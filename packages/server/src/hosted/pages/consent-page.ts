import type { SvcScopeDetail } from '@svc/contract';
import { formError, hiddenFormFields, type HostedFormContext } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import type { SelfRegisteredClient } from '../../signin/flow/authorize-outcomes.js';
import { grantedScopeList, selfRegisteredCaution, signedInAs } from './grant-summary.js';

export interface ConsentPageInput extends HostedFormContext {
  readonly clientName: string;
  /** The scopes the client asks for (after intersection with its allow-list), with their display names. */
  readonly scopes: readonly SvcScopeDetail[];
  /** Who is signed in, so that a shared computer does not grant someone else's account. */
  readonly userEmail?: string;
  readonly organizationName?: string;
  /** A client that registered itself: a caution says so. */
  readonly selfRegistered?: SelfRegisteredClient;
  readonly error?: string;
}

/**
 * Consent: the client, the signed-in account and the requested scopes by their display names (with a
 * description under a name that has one), in built-in words (openid, profile, email, offline_access) or
 * by raw name. One form posts to /consent/approve; the Deny button posts the same
 * fields to /consent/deny through `formaction` (HTML, no JavaScript). Approve comes first, so Enter in
 * the form approves only what is listed on screen.
 */
export function renderConsentPage(input: ConsentPageInput): string {
  const account = signedInAs(input.userEmail, input.organizationName);
  const list = grantedScopeList(input.clientName, input.scopes, 'is asking to:');
  const body = html`${account} ${list} ${selfRegisteredCaution(input.selfRegistered)}
    <form method="post" action="${input.authBase}/consent/approve">
      ${hiddenFormFields(input)} ${formError(input.error)}
      <div class="actions">
        <button class="button button-primary" type="submit">Approve</button>
        <button class="button button-secondary" type="submit" formaction="${input.authBase}/consent/deny">
          Deny
        </button>
      </div>
    </form>`;
  return renderLayout({
    authBase: input.authBase,
    title: 'Allow access',
    heading: `Allow ${input.clientName} to access your account?`,
    body,
  });
}
