import { formError, hiddenFormFields, HOSTED_FIELDS, loginHref, type HostedFormContext } from '../form.js';
import { html } from '../../http/pages/html.js';
import { renderLayout } from '../../http/pages/layout.js';

/** An organization the user may sign in to (SvcOrganizationOption fits). */
export interface OrganizationChoice {
  readonly id: string;
  readonly name: string;
  readonly slug?: string;
  readonly role?: string;
}

export interface SelectOrganizationPageInput extends HostedFormContext {
  readonly organizations: readonly OrganizationChoice[];
  readonly clientName?: string;
  readonly error?: string;
}

/**
 * Organization selection: one form whose submit buttons each carry an organization id (the clicked
 * button's `organization_id` is what the browser posts, no JavaScript needed) to
 * /login/select-organization.
 */
export function renderSelectOrganizationPage(input: SelectOrganizationPageInput): string {
  const choices = input.organizations.map((org) => {
    const meta = [org.slug, org.role].filter((part) => part !== undefined && part !== '').join(' · ');
    return html`<li>
      <button class="choice" type="submit" name="${HOSTED_FIELDS.organizationId}" value="${org.id}">
        <span class="choice-name">${org.name}</span
        >${meta !== '' && html`<span class="choice-meta">${meta}</span>`}
      </button>
    </li> `;
  });
  const lead =
    input.clientName === undefined
      ? html`<p class="lead">Your account belongs to more than one organization. Choose one to continue.</p>`
      : html`<p class="lead">Choose the organization to use with <strong>${input.clientName}</strong>.</p>`;
  const body = html`${lead}
    <form method="post" action="${input.authBase}/login/select-organization">
      ${hiddenFormFields(input)} ${formError(input.error)}
      <ul class="choices">
        ${choices}
      </ul>
    </form>
    <p class="alt"><a href="${loginHref(input.authBase, input.requestId)}">Use a different account</a></p>`;
  return renderLayout({
    authBase: input.authBase,
    title: 'Choose an organization',
    body,
  });
}
