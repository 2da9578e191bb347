import {
  SECURITY_SETTINGS_BOUNDS,
  securitySettingsUpdateBodySchema,
  svcSecuritySettingsSchema,
  type SvcSecuritySettings,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { apiSend } from '../../api/client.js';
import { invalidate, useRecord } from '../../data/queries.js';
import { TextField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import { Loading, Panel } from '../../ui/page.js';
import { notify } from '../../ui/toast.js';
import { FormActions } from '../../ui/form-parts.js';

const PATH = '/settings/security';

type Setting = keyof SvcSecuritySettings;
type Unit = 'minutes' | 'days' | 'seconds';

/** Each setting: its unit (in its name) and what it governs. */
const SETTINGS: readonly {
  readonly name: Setting;
  readonly label: string;
  readonly unit: Unit;
  readonly explains: string;
}[] = [
  {
    name: 'refreshTokenLifetimeMinutes',
    label: 'Refresh token lifetime',
    unit: 'minutes',
    explains: 'How long a refresh token can be redeemed.',
  },
  {
    name: 'sessionIdleTimeoutMinutes',
    label: 'Session idle timeout',
    unit: 'minutes',
    explains: 'A session whose app does not refresh for this long ends; each refresh extends it.',
  },
  {
    name: 'sessionAbsoluteLifetimeMinutes',
    label: 'Session absolute lifetime',
    unit: 'minutes',
    explains: 'A session ends this long after its sign-in, however active; no token outlives it.',
  },
  {
    name: 'signingKeyRotationIntervalDays',
    label: 'Signing key rotation interval',
    unit: 'days',
    explains: 'A new key signs tokens this often.',
  },
  {
    name: 'signingKeyGraceWindowDays',
    label: 'Signing key grace window',
    unit: 'days',
    explains:
      'A rotated-out key stays published this long, so tokens it signed still verify. Shorter than the rotation interval.',
  },
  {
    name: 'signingKeyRetiredCleanupDays',
    label: 'Retired key clean-up',
    unit: 'days',
    explains: 'A key no longer published is deleted this long after.',
  },
  {
    name: 'refreshTokenGraceWindowSeconds',
    label: 'Refresh token replay grace',
    unit: 'seconds',
    explains:
      'A used refresh token sent again within this window is refused but the session survives (a retry); later, the whole session is revoked as a replay.',
  },
];

const SECONDS: Readonly<Record<Unit, number>> = { seconds: 1, minutes: 60, days: 86_400 };
const SPANS = [
  ['year', 366 * 86_400],
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

/** A span in its largest whole unit: 43200 minutes → "30 days". */
function spanWords(value: number, unit: Unit): string {
  const seconds = value * SECONDS[unit];
  if (seconds === 0) return 'none';
  const [name, size] = SPANS.find(([, length]) => seconds % length === 0 && seconds >= length) ?? SPANS[4];
  const count = seconds / size;
  return `${count.toLocaleString()} ${name}${count === 1 ? '' : 's'}`;
}

const asNumber = (text: string) => (text.trim() === '' ? Number.NaN : Number(text));

function SettingsForm(props: { readonly settings: SvcSecuritySettings }) {
  const client = useQueryClient();
  const form = useContractForm({
    schema: securitySettingsUpdateBodySchema,
    initial: Object.fromEntries(SETTINGS.map(({ name }) => [name, String(props.settings[name])])) as Record<
      Setting,
      string
    >,
    toBody: (values) => Object.fromEntries(SETTINGS.map(({ name }) => [name, asNumber(values[name])])),
    submit: async (body) => {
      await apiSend('PUT', 'auth', PATH, body, svcSecuritySettingsSchema);
      await invalidate(client, 'auth', [PATH]);
      notify.success('Saved the security settings.');
    },
  });
  return (
    <form onSubmit={form.onSubmit} noValidate className="settings-grid">
      {SETTINGS.map(({ name, label, unit, explains }) => {
        const [min, max] = SECURITY_SETTINGS_BOUNDS[name];
        const value = asNumber(form.values[name]);
        return (
          <TextField
            key={name}
            label={`${label} (${unit})`}
            field={form.field(name)}
            isRequired
            description={
              <>
                {explains} From {min.toLocaleString()} to {max.toLocaleString()} {unit} (
                {spanWords(max, unit)}).
                {Number.isInteger(value) && value > 0 && ` Now ${spanWords(value, unit)}.`}
              </>
            }
          />
        );
      })}
      <FormActions form={form} submit="Save security settings" />
    </form>
  );
}

/** GET and PUT /settings/security, with the bounds the API enforces beside each field. */
export function SecuritySettings() {
  const settings = useRecord('auth', PATH, svcSecuritySettingsSchema);
  return (
    <Panel title="Tokens, sessions and signing keys">
      <p className="muted">
        A change applies to the next sign-ins and refreshes: at once on this node, within 5 seconds on the
        others. A value out of its range is refused, with the reason beside the field.
      </p>
      {settings.data === undefined ? (
        <Loading error={settings.error} retry={() => void settings.refetch()} />
      ) : (
        <SettingsForm settings={settings.data} />
      )}
    </Panel>
  );
}
