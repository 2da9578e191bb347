import { MFA_FACTORS, svcMfaSettingsSchema, type SvcMfaSettings } from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../api/client.js';
import { invalidate, useRecord } from '../../data/queries.js';
import { CheckboxField, SwitchField, TextField } from '../../ui/fields.js';
import { lines, useContractForm } from '../../ui/form.js';
import { Loading, Panel } from '../../ui/page.js';
import { notify } from '../../ui/toast.js';
import { FormActions } from '../../ui/form-parts.js';

const PATH = '/settings/mfa';

const FACTOR_LABELS: Readonly<Record<Factor, string>> = {
  totp: 'Authenticator app (TOTP)',
  recovery_code: 'Recovery codes',
};

type Factor = (typeof MFA_FACTORS)[number];
const factorField = (factor: Factor) => `factor_${factor}` as const;

/** The form's values: the settings, the roles as lines, and one checkbox per factor. */
type MfaValues = Omit<SvcMfaSettings, 'requiredRoles' | 'availableFactors'> & {
  requiredRoles: string;
} & Record<`factor_${Factor}`, boolean>;

function MfaForm(props: { readonly settings: SvcMfaSettings }) {
  const { settings } = props;
  const client = useQueryClient();
  const form = useContractForm<MfaValues, typeof svcMfaSettingsSchema>({
    schema: svcMfaSettingsSchema,
    initial: {
      enabled: settings.enabled,
      totpEnabled: settings.totpEnabled,
      userSelfEnrollmentEnabled: settings.userSelfEnrollmentEnabled,
      recoveryCodesEnabled: settings.recoveryCodesEnabled,
      requireForAllUsers: settings.requireForAllUsers,
      requireForOwnersAndAdmins: settings.requireForOwnersAndAdmins,
      requiredRoles: lines.format(settings.requiredRoles),
      factor_totp: settings.availableFactors.includes('totp'),
      factor_recovery_code: settings.availableFactors.includes('recovery_code'),
    },
    toBody: ({ requiredRoles, ...values }) => ({
      enabled: values.enabled,
      totpEnabled: values.totpEnabled,
      userSelfEnrollmentEnabled: values.userSelfEnrollmentEnabled,
      recoveryCodesEnabled: values.recoveryCodesEnabled,
      requireForAllUsers: values.requireForAllUsers,
      requireForOwnersAndAdmins: values.requireForOwnersAndAdmins,
      requiredRoles: lines.parse(requiredRoles),
      availableFactors: MFA_FACTORS.filter((factor) => values[factorField(factor)] === true),
    }),
    submit: async (body) => {
      await apiSend('PUT', 'auth', PATH, body, svcMfaSettingsSchema);
      await invalidate(client, 'auth', [PATH]);
      notify.success('Saved the MFA settings.');
    },
  });
  return (
    <form onSubmit={form.onSubmit} noValidate className="settings-form">
      <SwitchField
        label="MFA on"
        field={form.field('enabled')}
        description="Off: nobody is asked for a second factor."
      />
      <SwitchField label="Authenticator apps (TOTP)" field={form.field('totpEnabled')} />
      <SwitchField
        label="Users may enroll themselves"
        field={form.field('userSelfEnrollmentEnabled')}
        description="From their account, before anyone requires it."
      />
      <SwitchField
        label="Recovery codes"
        field={form.field('recoveryCodesEnabled')}
        description="One-time codes for a lost device."
      />
      <SwitchField label="Require MFA of every user" field={form.field('requireForAllUsers')} />
      <SwitchField
        label="Require MFA of owners and admins"
        field={form.field('requireForOwnersAndAdmins')}
        description="Of the users whose role in the sign-in's organization is owner or admin."
      />
      <TextField
        label="Also require MFA of these roles"
        multiline
        field={form.field('requiredRoles')}
        description="One membership role a line (compared in lower case), at most 50."
      />
      <fieldset className="choices">
        <legend>Factors offered</legend>
        {MFA_FACTORS.map((factor) => (
          <CheckboxField key={factor} label={FACTOR_LABELS[factor]} field={form.field(factorField(factor))} />
        ))}
      </fieldset>
      <FormActions form={form} submit="Save MFA settings" />
    </form>
  );
}

/**
 * GET and PUT /settings/mfa: the global MFA settings (an organization's own policy adds to them). The
 * decision is made once the sign-in's organization is known, and a challenge already issued keeps it.
 */
export function MfaSettings() {
  const settings = useRecord('auth', PATH, svcMfaSettingsSchema);
  return (
    <Panel title="Multi-factor sign-in">
      <p className="muted">
        For every organization; an organization&apos;s own enabled policy can require more. A user with an
        authenticator is asked for it whenever MFA is on, required or not.
      </p>
      {settings.data === undefined ? (
        <Loading error={settings.error} retry={() => void settings.refetch()} />
      ) : (
        <MfaForm settings={settings.data} />
      )}
    </Panel>
  );
}
