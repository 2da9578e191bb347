import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Page } from '../../ui/page.js';
import { Tabs } from '../../ui/tabs.js';
import { AccessTester } from './access-tester.js';
import { GrantsPanel } from './grants-panel.js';
import { GroupsPanel } from './groups-panel.js';
import { ModelPanel } from './model-panel.js';
import { ResourceTreePanel } from './resource-tree.js';
import type { AuthorizationTab } from './routes.js';

const route = getRouteApi('/authorization');

/**
 * Fine-grained authorization: the resource tree, the model (types, permissions, roles), groups, grants,
 * and the access tester.
 */
export function AuthorizationPage() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/authorization' });
  const selectResource = (resource: string | undefined) =>
    void navigate({ search: (prev) => ({ ...prev, resource }) });
  return (
    <Page
      title="Authorization"
      description="Who may do what on which resource: roles granted on a tree of resources, inherited by everything below."
    >
      <Tabs<AuthorizationTab>
        label="Authorization"
        selected={search.tab ?? 'resources'}
        onSelect={(tab) =>
          void navigate({ search: (prev) => ({ ...prev, tab: tab === 'resources' ? undefined : tab }) })
        }
        tabs={[
          {
            id: 'resources',
            label: 'Resources',
            content: <ResourceTreePanel selected={search.resource} onSelect={selectResource} />,
          },
          { id: 'model', label: 'Types and roles', content: <ModelPanel /> },
          { id: 'groups', label: 'Groups', content: <GroupsPanel /> },
          { id: 'grants', label: 'Grants', content: <GrantsPanel /> },
          { id: 'access', label: 'Access tester', content: <AccessTester /> },
        ]}
      />
    </Page>
  );
}
