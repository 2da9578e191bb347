import { svcUserSchema } from '@svc/contract';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useRecord } from '../../data/queries.js';
import { Badge, Id, Time } from '../../ui/format.js';
import { Facts, Loading, Page, Panel } from '../../ui/page.js';
import { Tabs } from '../../ui/tabs.js';
import type { UserTab } from './routes.js';
import { EditUser, UserActivation, userPath } from './user-account.js';
import { UserGrantsPanel } from './user-grants-panel.js';
import { UserIdentitiesPanel } from './user-identities-panel.js';
import { UserMembershipsPanel } from './user-memberships-panel.js';
import { UserMfaPanel } from './user-mfa-panel.js';
import { UserSessionsPanel } from './user-sessions-panel.js';
import { UserSignInPanel } from './user-sign-in.js';

const route = getRouteApi('/users/$userId');

const back = <Link to="/users">← Users</Link>;

/** A user: facts, sign-in and access, then memberships, sessions, consent grants, identities and MFA. */
export function UserPage() {
  const { userId } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/users/$userId' });
  const record = useRecord('auth', userPath({ id: userId }), svcUserSchema);
  const user = record.data;
  if (user === undefined) {
    return (
      <Page title="User" back={back}>
        <Loading error={record.error} retry={() => void record.refetch()} />
      </Page>
    );
  }
  return (
    <Page
      title={user.displayName}
      description={user.active ? user.email : 'Deactivated: they cannot sign in.'}
      back={back}
      actions={
        <>
          <EditUser user={user} />
          <UserActivation user={user} />
        </>
      }
    >
      <Panel title="Details">
        <Facts
          items={[
            ['ID', <Id value={user.id} />],
            ['Status', <Badge on={user.active} yes="Active" no="Deactivated" />],
            ['Created', <Time iso={user.createdAt} />],
          ]}
        />
      </Panel>
      <UserSignInPanel user={user} />
      <Tabs<UserTab>
        label="User"
        selected={search.tab ?? 'memberships'}
        onSelect={(tab) => void navigate({ search: { tab: tab === 'memberships' ? undefined : tab } })}
        tabs={[
          { id: 'memberships', label: 'Memberships', content: <UserMembershipsPanel user={user} /> },
          { id: 'sessions', label: 'Sessions', content: <UserSessionsPanel user={user} /> },
          { id: 'grants', label: 'Consent grants', content: <UserGrantsPanel user={user} /> },
          { id: 'identities', label: 'Linked identities', content: <UserIdentitiesPanel user={user} /> },
          { id: 'mfa', label: 'MFA', content: <UserMfaPanel user={user} /> },
        ]}
      />
    </Page>
  );
}
