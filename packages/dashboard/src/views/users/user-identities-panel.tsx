import {
  svcLinkedIdentitySchema,
  type OidcProviderType,
  type SvcLinkedIdentity,
  type SvcUser,
} from '@svc/contract';
import { apiSend, noBody } from '../../api/client.js';
import { useAction } from '../../data/queries.js';
import { useUnpagedList } from '../../data/unpaged-list.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { Age, Badge, Id } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { userPath } from './user-account.js';

/** What kind of provider a connection is: any OpenID provider (`Custom`), or a built-in social one. */
const providerKind = (type: OidcProviderType) => (type === 'Custom' ? 'OpenID Connect' : `Social: ${type}`);

function UnlinkIdentity(props: { readonly user: SvcUser; readonly identity: SvcLinkedIdentity }) {
  const { user, identity } = props;
  const unlink = useAction({
    run: () =>
      apiSend(
        'DELETE',
        'auth',
        `${userPath(user)}/identities/${encodeURIComponent(identity.id)}`,
        undefined,
        noBody,
      ),
    refresh: [userPath(user)],
    success: 'Unlinked the identity.',
    quiet: true,
  });
  return (
    <ConfirmButton label="Unlink" title="Unlink this identity?" run={() => unlink.mutateAsync()}>
      <p>
        {user.displayName} can no longer sign in through {identity.connection.displayName} as{' '}
        {identity.email ?? identity.subject}, until a later sign-in there links it again (which needs the
        provider to assert the address verified). The last way an account signs in cannot be unlinked.
      </p>
    </ConfirmButton>
  );
}

/** The provider identities (OIDC, SAML, social) linked to the user's account; each can be unlinked. */
export function UserIdentitiesPanel(props: { readonly user: SvcUser }) {
  const { user } = props;
  const list = useUnpagedList('auth', `${userPath(user)}/identities`, svcLinkedIdentitySchema);
  const columns: readonly TableColumn<SvcLinkedIdentity>[] = [
    {
      id: 'connection',
      label: 'Connection',
      cell: ({ connection }) => (
        <span className="stacked">
          {connection.displayName}
          <span className="muted">{providerKind(connection.providerType)}</span>
        </span>
      ),
      isRowHeader: true,
    },
    { id: 'subject', label: 'Subject', cell: (identity) => <Id value={identity.subject} /> },
    {
      id: 'email',
      label: 'Email there',
      cell: (identity) => (
        <>
          {identity.email ?? '—'} <Badge on={identity.emailVerified} yes="Verified" no="Not verified" />
        </>
      ),
    },
    { id: 'used', label: 'Last used', cell: (identity) => <Age iso={identity.lastUsedAt} /> },
    {
      id: 'actions',
      label: 'Actions',
      cell: (identity) => <UnlinkIdentity user={user} identity={identity} />,
    },
  ];
  return (
    <Panel title="Linked identities">
      <DataTable
        label="Linked identities"
        columns={columns}
        list={list}
        rowKey={(identity) => identity.id}
        empty={
          <EmptyState title="No linked identities.">
            An identity is linked when the user signs in through an identity provider connection.
          </EmptyState>
        }
      />
    </Panel>
  );
}
