import {
  svcConsentGrantRevokeResultSchema,
  svcConsentGrantSchema,
  type SvcConsentGrant,
  type SvcUser,
} from '@svc/contract';
import { apiSend } from '../../api/client.js';
import { useAction } from '../../data/queries.js';
import { useUnpagedList } from '../../data/unpaged-list.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { userPath } from './user-account.js';

function RevokeGrant(props: { readonly user: SvcUser; readonly grant: SvcConsentGrant }) {
  const { user, grant } = props;
  const revoke = useAction({
    run: () =>
      apiSend(
        'POST',
        'auth',
        `${userPath(user)}/grants/${encodeURIComponent(grant.id)}/revoke`,
        undefined,
        svcConsentGrantRevokeResultSchema,
      ),
    refresh: [userPath(user)],
    success: `Revoked the consent to ${grant.clientName}.`,
    quiet: true,
  });
  return (
    <ConfirmButton
      label="Revoke"
      title={`Revoke the consent to ${grant.clientName}?`}
      run={() => revoke.mutateAsync()}
    >
      <p>
        The next time {grant.clientName} signs {user.displayName} in, they are asked again whether to allow it{' '}
        {grant.scopes.join(', ')}. Its sessions already started go on: revoke them in the Sessions tab to end
        them.
      </p>
    </ConfirmButton>
  );
}

/** The applications the user consented to, with the scopes; each revocable. */
export function UserGrantsPanel(props: { readonly user: SvcUser }) {
  const { user } = props;
  const list = useUnpagedList('auth', `${userPath(user)}/grants`, svcConsentGrantSchema);
  const columns: readonly TableColumn<SvcConsentGrant>[] = [
    { id: 'client', label: 'Application', cell: (grant) => grant.clientName, isRowHeader: true },
    {
      id: 'scopes',
      label: 'Scopes',
      cell: (grant) => grant.scopeDetails.map((scope) => scope.displayName ?? scope.scope).join(', '),
    },
    { id: 'granted', label: 'Granted', cell: (grant) => <Time iso={grant.grantedAt} /> },
    { id: 'actions', label: 'Actions', cell: (grant) => <RevokeGrant user={user} grant={grant} /> },
  ];
  return (
    <Panel title="Consent grants">
      <DataTable
        label="Consent grants"
        columns={columns}
        list={list}
        rowKey={(grant) => grant.id}
        empty={
          <EmptyState title="No consent grants.">
            A grant is kept when the user allows a third-party application what it asks for.
          </EmptyState>
        }
      />
    </Panel>
  );
}
