import {
  svcMfaSettingsSchema,
  svcOrganizationMfaPolicySchema,
  type SvcOrganization,
  type SvcOrganizationMfaPolicy,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../api/client.js';
import { invalidate, useRecord } from '../../data/queries.js';
import { CheckboxField, SwitchField, TextField } from '../../ui/fields.js';
import { FormActions } from '../../ui/form-parts.js';
import { lines, useContractForm } from '../../ui/form.js';
import { Loading, Panel } from '../../ui/page.js';
import { notify } from '../../ui/toast.js';

function MfaPolicyForm(props: { readonly path: string; readonly policy: SvcOrganizationMfaPolicy }) {
  const { policy } = props;
  const client = useQueryClient();
  const form = useContractForm({
    schema: svcOrganizationMfaPolicySchema,
    initial: {
      isEnabled: policy.isEnabled,
      requireMfaForAllUsers: policy.requireMfaForAllUsers,
      requireMfaForOwnersAndAdmins: policy.requireMfaForOwnersAndAdmins,
      userSelfEnrollmentEnabled: policy.userSelfEnrollmentEnabled,
      recoveryCodesEnabled: policy.recoveryCodesEnabled,
      requiredRoles: lines.format(policy.requiredRoles),
      totp: policy.availableFactors.includes('totp'),
      recoveryCode: policy.availableFactors.includes('recovery_code'),
    },
    toBody: ({ totp, recoveryCode, requiredRoles, ...switches }) => ({
      ...switches,
      requiredRoles: lines.parse(requiredRoles),
      availableFactors: [...(totp ? ['totp'] : []), ...(recoveryCode ? ['recovery_code'] : [])],
    }),
    submit: async (body) => {
      await apiSend('PUT', 'auth', props.path, body, svcOrganizationMfaPolicySchema);
      await invalidate(client, 'auth', [props.path]);
      notify.success('Saved the MFA policy.', 'It applies from each member’s next sign-in.');
    },
  });
  const enabled = form.values.isEnabled;
  return (
    <form onSubmit={form.onSubmit} noValidate className="mfa-policy">
      <SwitchField
        label="This organization has its own MFA policy"
        field={form.field('isEnabled')}
        description="Off: only the global MFA settings apply to its members."
      />
      <fieldset className="fieldset">
        <legend>Require MFA</legend>
        <SwitchField
          label="For every member"
          field={form.field('requireMfaForAllUsers')}
          isDisabled={!enabled}
        />
        <SwitchField
          label="For owners and admins"
          field={form.field('requireMfaForOwnersAndAdmins')}
          isDisabled={!enabled}
        />
        <TextField
          label="For these roles"
          multiline
          field={form.field('requiredRoles')}
          isDisabled={!enabled}
          description="One role a line. A member who must use MFA and has no authenticator enrolls one at sign-in."
        />
      </fieldset>
      <fieldset className="fieldset">
        <legend>Factors</legend>
        <SwitchField
          label="Members may enroll an authenticator themselves"
          field={form.field('userSelfEnrollmentEnabled')}
          isDisabled={!enabled}
        />
        <SwitchField
          label="Recovery codes"
          field={form.field('recoveryCodesEnabled')}
          isDisabled={!enabled}
        />
        <div className="checkboxes">
          <CheckboxField label="Authenticator app (TOTP)" field={form.field('totp')} isDisabled={!enabled} />
          <CheckboxField label="Recovery code" field={form.field('recoveryCode')} isDisabled={!enabled} />
        </div>
      </fieldset>
      <FormActions form={form} submit="Save MFA policy" />
    </form>
  );
}

/**
 * The organization's MFA policy (GET and PUT /organizations/{id}/mfa-policy), which adds to the global
 * MFA settings; a notice says so when those have MFA off, because the policy then requires nothing.
 */
export function MfaPolicyPanel(props: { readonly organization: SvcOrganization }) {
  const path = `/organizations/${encodeURIComponent(props.organization.id)}/mfa-policy`;
  const policy = useRecord('auth', path, svcOrganizationMfaPolicySchema);
  const settings = useRecord('auth', '/settings/mfa', svcMfaSettingsSchema);
  const globalOff = settings.data !== undefined && (!settings.data.enabled || !settings.data.totpEnabled);
  return (
    <Panel title="MFA policy">
      {globalOff && (
        <div className="notice notice-warning">
          <p>
            MFA is off in the global MFA settings: no sign-in asks for a second factor until it is on there.
          </p>
        </div>
      )}
      {policy.data === undefined ? (
        <Loading error={policy.error} retry={() => void policy.refetch()} />
      ) : (
        <MfaPolicyForm path={path} policy={policy.data} />
      )}
    </Panel>
  );
}
