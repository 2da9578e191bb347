import {
  svcApplicationAccessCheckSchema,
  type SvcApplicationAccessCheck,
  type SvcClient,
} from '@svc/contract';
import { useState } from 'react';
import { apiGet } from '../../api/client.js';
import { Button } from '../../ui/button.js';
import { Badge } from '../../ui/format.js';
import { Panel } from '../../ui/page.js';
import type { Picked } from '../../ui/record-picker.js';
import { OrganizationPicker, UserPicker } from '../pickers.js';
import { applicationPath } from './client-paths.js';
import { ErrorText } from '../../ui/form-parts.js';
import { useCall } from '../../ui/use-call.js';

/**
 * What a user's sign-in (within an organization, or without one) would get from the access rules now,
 * with the reasons the API gives: `GET /applications/{id}/access/check`. Nothing changes.
 */
export function AccessCheck(props: { readonly client: SvcClient }) {
  const { client } = props;
  const [user, setUser] = useState<Picked | null>(null);
  const [organization, setOrganization] = useState<Picked | null>(null);
  const [result, setResult] = useState<{ readonly who: string; readonly check: SvcApplicationAccessCheck }>();
  const call = useCall();
  const check = () =>
    call.run(async () => {
      if (user === null) return;
      setResult(undefined);
      const answer = await apiGet(
        'auth',
        `${applicationPath(client.id)}/access/check`,
        svcApplicationAccessCheckSchema,
        { userId: user.id, organizationId: organization?.id },
      );
      setResult({
        who: organization === null ? user.label : `${user.label} in ${organization.label}`,
        check: answer,
      });
    });
  return (
    <Panel title="Check a user's access">
      <div className="filters">
        <UserPicker label="User" value={user} onChange={setUser} />
        <OrganizationPicker
          label="Signing in to organization"
          value={organization}
          onChange={setOrganization}
          description="Leave empty for a sign-in without an organization."
        />
        <Button onPress={() => void check()} isDisabled={user === null} isPending={call.pending}>
          Check access
        </Button>
      </div>
      <ErrorText message={call.error} />
      {result !== undefined && (
        <div className="access-result" role="status">
          <p>
            <Badge on={result.check.allowed} yes="Allowed" no="Refused" /> {result.who}:{' '}
            <code className="id">{result.check.decision}</code>
          </p>
          <ul>
            {result.check.reasons.map((reason, index) => (
              <li key={`${reason.code}-${index}`}>
                {reason.message} <span className="muted">({reason.code})</span>
              </li>
            ))}
          </ul>
        </div>
      )}
    </Panel>
  );
}
