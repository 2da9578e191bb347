import { svcOrganizationSchema, updateOrganizationBodySchema, type SvcOrganization } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../api/client.js';
import { invalidate, useAction } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { useContractForm } from '../../ui/form.js';
import { notify } from '../../ui/toast.js';
import { OrganizationFields } from './create-organization.js';

const pathOf = (organization: SvcOrganization) => `/organizations/${encodeURIComponent(organization.id)}`;

/** PATCH /organizations/{id} with `body`; the answer is the organization as it is now. */
export function patchOrganization(organization: SvcOrganization, body: unknown): Promise<SvcOrganization> {
  return apiSend('PATCH', 'auth', pathOf(organization), body, svcOrganizationSchema);
}

function EditOrganizationForm(props: { readonly organization: SvcOrganization; readonly close: () => void }) {
  const { organization } = props;
  const client = useQueryClient();
  const form = useContractForm({
    schema: updateOrganizationBodySchema,
    initial: {
      name: organization.name,
      slug: organization.slug,
      primaryDomain: organization.primaryDomain ?? '',
    },
    // An emptied domain is sent as null, which removes it.
    toBody: (values) => ({ ...values, primaryDomain: values.primaryDomain.trim() || null }),
    submit: async (body) => {
      const saved = await patchOrganization(organization, body);
      await invalidate(client, 'auth', ['/organizations']);
      notify.success(`Saved ${saved.name}.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Save" onCancel={props.close}>
      <OrganizationFields field={form.field} />
    </DialogForm>
  );
}

/** The Edit button of an organization's page: name, slug and primary domain. */
export function EditOrganization(props: { readonly organization: SvcOrganization }) {
  return (
    <ModalDialog title={`Edit ${props.organization.name}`} trigger={<Button>Edit</Button>}>
      {(close) => <EditOrganizationForm organization={props.organization} close={close} />}
    </ModalDialog>
  );
}

/**
 * Deactivates (or reactivates) the organization behind a confirmation that says what it ends
 * (docs/reference/organizations.md "Deactivation").
 */
export function OrganizationActivation(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const action = useAction({
    run: (active: boolean) => patchOrganization(organization, { active }),
    refresh: ['/organizations', '/sessions', '/users'],
    success: (saved) => `${saved.name} is ${saved.active ? 'active again' : 'deactivated'}.`,
    quiet: true,
  });
  if (!organization.active) {
    return (
      <ConfirmButton
        key="reactivate"
        label="Reactivate"
        title={`Reactivate ${organization.name}?`}
        tone="primary"
        run={() => action.mutateAsync(true)}
      >
        <p>
          Its active members can sign in to it again. Sessions that ended when it was deactivated stay ended:
          members sign in anew.
        </p>
      </ConfirmButton>
    );
  }
  return (
    <ConfirmButton
      key="deactivate"
      label="Deactivate"
      title={`Deactivate ${organization.name}?`}
      triggerTone="danger"
      run={() => action.mutateAsync(false)}
    >
      <p>
        Every session in this organization ends now, for all its members: their refresh and access tokens stop
        working at once, and none of them can sign in to it until it is reactivated. Their sessions in other
        organizations are untouched. Its memberships and settings are kept, so reactivating lets its members
        sign in again.
      </p>
    </ConfirmButton>
  );
}
