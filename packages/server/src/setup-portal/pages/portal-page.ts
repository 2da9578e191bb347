import type { SvcDomainClaim, SvcSsoConnection, SvcSsoPortalTestResult } from '@svc/contract';
import type { PortalOverview } from '../../federation/sso-portal/portal-setup.js';
import { html, type SafeHtml } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

/** The hidden field of every portal form. */
export const PORTAL_CSRF_FIELD = '_csrf';

export interface PortalPageInput {
  readonly portalBase: string;
  /** The page's own path (forms post under it). */
  readonly pagePath: string;
  readonly overview: PortalOverview;
  readonly csrfToken: string;
  /** What the last form did, shown above everything (from the redirect after it). */
  readonly notice?: string;
  /** Why the last form was refused, shown above everything. */
  readonly error?: string;
}

function when(epochOrIso: number | string): string {
  return new Date(epochOrIso).toUTCString().replace(' GMT', ' UTC');
}

function postForm(input: PortalPageInput, action: string, label: string, primary = false): SafeHtml {
  return html`<form method="post" action="${input.pagePath}${action}">
    <input type="hidden" name="${PORTAL_CSRF_FIELD}" value="${input.csrfToken}" />
    <button type="submit" class="button ${primary ? 'button-primary' : 'button-secondary'}">${label}</button>
  </form>`;
}

function copyValue(label: string, value: string | null): SafeHtml {
  return html`<dt>${label}</dt>
    <dd>
      ${value === null ? html`<span class="muted">Not yet known</span>` : html`<code class="copy">${value}</code>`}
    </dd>`;
}

function connectionState(connection: SvcSsoConnection): SafeHtml {
  if (connection.enabled) return html`<span class="badge badge-ok">Enabled</span>`;
  return connection.idpEntityId === null
    ? html`<span class="badge badge-warn">Waiting for your identity provider's metadata</span>`
    : html`<span class="badge">Disabled</span>`;
}

function connectionItem(input: PortalPageInput, connection: SvcSsoConnection): SafeHtml {
  const base = `/connections/${encodeURIComponent(connection.id)}`;
  const certificates = connection.idpCertificates.map(
    (c) => html`<li>${c.subject}, valid until ${when(c.notAfter)}</li>`,
  );
  return html`<div class="item" id="connection-${connection.id}">
    <div class="item-head">
      <h3>${connection.displayName}</h3>
      ${connectionState(connection)}
    </div>
    <p class="muted">Give your identity provider these values (or the metadata URL, if it can read one):</p>
    <dl class="kv">
      ${copyValue('Entity ID', connection.spEntityId)} ${copyValue('ACS URL', connection.acsUrl)}
      ${copyValue('Metadata URL', connection.spEntityId)}
    </dl>
    <h3>Your identity provider</h3>
    <dl class="kv">
      ${copyValue('Entity ID', connection.idpEntityId)} ${copyValue('Sign-in URL', connection.idpSsoUrl)}
      <dt>Certificates</dt>
      <dd>
        ${
          certificates.length === 0
            ? html`<span class="muted">None yet</span>`
            : html`<ul class="result">
                ${certificates}
              </ul>`
        }
      </dd>
    </dl>
    <form method="post" action="${input.pagePath}${base}/metadata" enctype="multipart/form-data">
      <input type="hidden" name="${PORTAL_CSRF_FIELD}" value="${input.csrfToken}" />
      <div class="field">
        <label for="metadata-xml-${connection.id}">Paste your identity provider's SAML metadata</label>
        <textarea id="metadata-xml-${connection.id}" name="metadataXml" spellcheck="false"></textarea>
      </div>
      <div class="field">
        <label for="metadata-file-${connection.id}">…or upload the metadata file</label>
        <input
          id="metadata-file-${connection.id}"
          type="file"
          name="metadataFile"
          accept=".xml,text/xml,application/xml"
        />
      </div>
      <div class="field">
        <label for="metadata-url-${connection.id}">…or enter the https URL of the metadata</label>
        <input
          id="metadata-url-${connection.id}"
          type="url"
          name="metadataUrl"
          inputmode="url"
          placeholder="https://"
          spellcheck="false"
        />
      </div>
      <button type="submit" class="button button-primary">
        ${connection.idpEntityId === null ? 'Save metadata' : 'Replace metadata'}
      </button>
    </form>
    ${
      connection.enabled
        ? html`<div class="actions">
            ${postForm(input, `${base}/test`, 'Test sign-in', true)}
            ${postForm(input, `${base}/disable`, 'Disable')}
          </div>`
        : connection.idpEntityId === null
          ? html``
          : html`<div class="actions">${postForm(input, `${base}/enable`, 'Enable')}</div>`
    }
  </div>`;
}

/** A form of one text field and its button, next to each other. */
function oneFieldForm(
  input: PortalPageInput,
  action: string,
  fieldInput: { id: string; name: string; label: string; maxLength: number; placeholder: string },
  button: string,
): SafeHtml {
  return html`<form method="post" action="${input.pagePath}${action}">
    <input type="hidden" name="${PORTAL_CSRF_FIELD}" value="${input.csrfToken}" />
    <div class="row">
      <div class="field">
        <label for="${fieldInput.id}">${fieldInput.label}</label>
        <input
          id="${fieldInput.id}"
          type="text"
          name="${fieldInput.name}"
          required
          maxlength="${fieldInput.maxLength}"
          placeholder="${fieldInput.placeholder}"
        />
      </div>
      <button type="submit" class="button button-primary">${button}</button>
    </div>
  </form>`;
}

const CLAIM_STATES: Readonly<Record<SvcDomainClaim['status'], SafeHtml>> = {
  active: html`<span class="badge badge-ok">Verified</span>`,
  pending_ownership: html`<span class="badge badge-warn">Waiting for the DNS record</span>`,
  revoked: html`<span class="badge">Withdrawn</span>`,
};

function domainItem(input: PortalPageInput, claim: SvcDomainClaim): SafeHtml {
  return html`<div class="item" id="domain-${claim.id}">
    <div class="item-head">
      <h3>${claim.domain}</h3>
      ${CLAIM_STATES[claim.status]}
    </div>
    ${
      claim.status === 'pending_ownership'
        ? html`<p class="muted">Add this record at your DNS provider, then check it:</p>`
        : html``
    }
    <dl class="kv">
      ${copyValue('Type', claim.record.type)} ${copyValue('Name', claim.record.name)}
      ${copyValue('Value', claim.record.value)}
    </dl>
    ${
      claim.lastCheck === null
        ? html``
        : html`<p class="muted">
            Last checked ${when(claim.lastCheck.checkedAt)}: ${claim.lastCheck.message}
          </p>`
    }
    ${
      claim.status === 'revoked'
        ? html``
        : html`<div class="actions">
            ${postForm(input, `/domains/${encodeURIComponent(claim.id)}/verify`, 'Check now')}
          </div>`
    }
  </div>`;
}

function testResult(result: SvcSsoPortalTestResult | null): SafeHtml {
  if (result === null) return html``;
  if (result.outcome === 'refused') {
    return html`<div class="error" id="test-result" role="status">
      <strong>Test sign-in refused</strong> (${when(result.at)}): ${result.message}
    </div>`;
  }
  const attributes = Object.entries(result.attributes).map(
    ([name, values]) => html`<li><code>${name}</code>: ${values.join(', ')}</li>`,
  );
  return html`<div class="notice" id="test-result" role="status">
    <h2>Test sign-in worked</h2>
    <p class="muted">${when(result.at)}. Nobody was signed in; this is what your identity provider sent:</p>
    <dl class="kv">
      ${copyValue('NameID', result.nameId)} ${copyValue('Email', result.email)}
      <dt>Attributes</dt>
      <dd>
        ${
          attributes.length === 0
            ? html`<span class="muted">None</span>`
            : html`<ul class="result">
                ${attributes}
              </ul>`
        }
      </dd>
    </dl>
  </div>`;
}

/**
 * The portal page: everything a customer's admin needs to connect their identity provider, as forms
 * that work without JavaScript (each posts, then is redirected back here).
 */
export function renderPortalPage(input: PortalPageInput): string {
  const { overview } = input;
  return renderLayout({
    authBase: input.portalBase,
    title: 'Single sign-on setup',
    heading: `Set up single sign-on for ${overview.organization.name}`,
    wide: true,
    body: html`<p class="lead">
        Connect your identity provider and verify your email domains. This page stays open until
        ${when(overview.sessionExpiresAt)}.
      </p>
      ${input.error === undefined ? html`` : html`<div class="error" role="alert">${input.error}</div>`}
      ${input.notice === undefined ? html`` : html`<div class="notice" role="status">${input.notice}</div>`}
      ${testResult(overview.testResult)}
      <section class="section" aria-labelledby="connections-title">
        <h2 id="connections-title">SAML connection</h2>
        ${overview.connections.map((c) => connectionItem(input, c))}
        ${
          overview.connections.length === 0
            ? oneFieldForm(
                input,
                '/connections',
                {
                  id: 'display-name',
                  name: 'displayName',
                  label: 'Connection name',
                  maxLength: 200,
                  placeholder: 'Okta, Entra ID…',
                },
                'Add a SAML connection',
              )
            : html``
        }
      </section>
      <section class="section" aria-labelledby="domains-title">
        <h2 id="domains-title">Email domains</h2>
        <p class="muted">
          People with an address at a verified domain are sent to your identity provider when they sign in.
        </p>
        ${overview.domains.map((d) => domainItem(input, d))}
        ${oneFieldForm(
          input,
          '/domains',
          { id: 'domain', name: 'domain', label: 'Email domain', maxLength: 253, placeholder: 'example.com' },
          'Add domain',
        )}
      </section>`,
  });
}
