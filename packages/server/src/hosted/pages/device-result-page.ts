import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

export interface DeviceResultPageInput {
  readonly authBase: string;
  readonly clientName: string;
  readonly decision: 'approved' | 'denied';
}

/**
 * The end of a device sign-in: the device was approved (it picks up its tokens on its next poll) or
 * denied (its poll answers access_denied). Nothing to do in the browser any more, so no links.
 */
export function renderDeviceResultPage(input: DeviceResultPageInput): string {
  if (input.decision === 'approved') {
    return renderLayout({
      authBase: input.authBase,
      title: 'Device connected',
      body: html`<p class="lead">You are signed in to <strong>${input.clientName}</strong> on your device.</p>
        <p>You can return to your device.</p>`,
    });
  }
  return renderLayout({
    authBase: input.authBase,
    title: 'Request denied',
    body: html`<p class="lead">Your device was not signed in to <strong>${input.clientName}</strong>.</p>
      <p>You can close this page.</p>`,
  });
}
