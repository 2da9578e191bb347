import type { SvcScopeDetail } from '@svc/contract';
import { formError, hiddenFormFields, loginHref, type HostedFormContext } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';
import type { SelfRegisteredClient } from '../../signin/flow/authorize-outcomes.js';
import { grantedScopeList, selfRegisteredCaution, signedInAs } from './grant-summary.js';

export interface DeviceApprovalPageInput extends HostedFormContext {
  readonly clientName: string;
  /** The device's code, `XXXX-XXXX`. */
  readonly userCode: string;
  /** The scopes the device asked for that its client may have, with their display names. */
  readonly scopes: readonly SvcScopeDetail[];
  /** Who is signed in, so that a shared computer does not connect someone else's account. */
  readonly userEmail?: string;
  readonly organizationName?: string;
  /** A client that registered itself: a caution says so. */
  readonly selfRegistered?: SelfRegisteredClient;
  readonly error?: string;
}

/**
 * The device approval (RFC 8628 §3.3): the client, the code to compare with the device's screen (§3.3.1:
 * a code that came in the device's link must be confirmed), the account, and what the device may do.
 * One form posts to /device/approve; Deny posts the same fields to /device/deny through `formaction` (no
 * JavaScript). The warning is §5.4's remote phishing advice: a code someone else sent you is not yours to
 * approve.
 */
export function renderDeviceApprovalPage(input: DeviceApprovalPageInput): string {
  const account = signedInAs(input.userEmail, input.organizationName);
  const list = grantedScopeList(input.clientName, input.scopes, 'on your device will be able to:');
  const body = html`${account}
    <p>Check that your device shows this code:</p>
    <p class="user-code">${input.userCode}</p>
    ${list} ${selfRegisteredCaution(input.selfRegistered)}
    <p class="muted">
      Approve only if you started this sign-in on your own device. If someone sent you this code, deny.
    </p>
    <form method="post" action="${input.authBase}/device/approve">
      ${hiddenFormFields(input)} ${formError(input.error)}
      <div class="actions">
        <button class="button button-primary" type="submit">Approve</button>
        <button class="button button-secondary" type="submit" formaction="${input.authBase}/device/deny">
          Deny
        </button>
      </div>
    </form>
    <p class="alt"><a href="${loginHref(input.authBase, input.requestId)}">Use a different account</a></p>`;
  return renderLayout({
    authBase: input.authBase,
    title: 'Connect a device',
    heading: `Sign in to ${input.clientName} on your device?`,
    body,
  });
}
