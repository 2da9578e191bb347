import { svcOrganizationSchema } from '@svc/contract';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useRecord } from '../../data/queries.js';
import { Badge, Id, Time } from '../../ui/format.js';
import { Facts, Loading, Page, Panel } from '../../ui/page.js';
import { Tabs } from '../../ui/tabs.js';
import { DomainsPanel } from './domains-panel.js';
import { InvitationsPanel } from './invitations-panel.js';
import { MembersPanel } from './members-panel.js';
import { MfaPolicyPanel } from './mfa-policy-panel.js';
import { EditOrganization, OrganizationActivation } from './organization-settings.js';
import type { OrganizationTab } from './routes.js';
import { ScimPanel } from './scim/scim-panel.js';
import { SetupLinksPanel } from './setup-links-panel.js';
import { SsoPanel } from './sso/sso-panel.js';

const route = getRouteApi('/organizations/$organizationId');

const back = <Link to="/organizations">← Organizations</Link>;

/**
 * An organization: its facts and settings, then its members, invitations, MFA policy, single sign-on,
 * domains, SSO setup links and directory sync.
 */
export function OrganizationPage() {
  const { organizationId } = route.useParams();
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/organizations/$organizationId' });
  const path = `/organizations/${encodeURIComponent(organizationId)}`;
  const record = useRecord('auth', path, svcOrganizationSchema);
  const organization = record.data;
  if (organization === undefined) {
    return (
      <Page title="Organization" back={back}>
        <Loading error={record.error} retry={() => void record.refetch()} />
      </Page>
    );
  }
  return (
    <Page
      title={organization.name}
      description={organization.active ? undefined : 'Deactivated: its members cannot sign in to it.'}
      back={back}
      actions={
        <>
          <EditOrganization organization={organization} />
          <OrganizationActivation organization={organization} />
        </>
      }
    >
      <Panel title="Details">
        <Facts
          items={[
            ['ID', <Id value={organization.id} />],
            ['Slug', <Id value={organization.slug} />],
            ['Primary domain', organization.primaryDomain ?? '—'],
            ['Status', <Badge on={organization.active} yes="Active" no="Deactivated" />],
            ['Created', <Time iso={organization.createdAt} />],
          ]}
        />
      </Panel>
      <Tabs<OrganizationTab>
        label="Organization"
        selected={search.tab ?? 'members'}
        onSelect={(tab) =>
          void navigate({ search: (prev) => ({ ...prev, tab: tab === 'members' ? undefined : tab }) })
        }
        tabs={[
          { id: 'members', label: 'Members', content: <MembersPanel organization={organization} /> },
          {
            id: 'invitations',
            label: 'Invitations',
            content: <InvitationsPanel organization={organization} />,
          },
          { id: 'mfa', label: 'MFA policy', content: <MfaPolicyPanel organization={organization} /> },
          { id: 'sso', label: 'Single sign-on', content: <SsoPanel organization={organization} /> },
          { id: 'domains', label: 'Domains', content: <DomainsPanel organization={organization} /> },
          {
            id: 'setup-links',
            label: 'Setup links',
            content: <SetupLinksPanel organization={organization} />,
          },
          {
            id: 'directory-sync',
            label: 'Directory sync',
            content: <ScimPanel organization={organization} />,
          },
        ]}
      />
    </Page>
  );
}
