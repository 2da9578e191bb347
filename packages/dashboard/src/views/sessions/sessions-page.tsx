import { svcSessionSchema } from '@svc/contract';
import { getRouteApi } from '@tanstack/react-router';
import { useList } from '../../data/queries.js';
import { EmptyState, Page } from '../../ui/page.js';
import { activeOf } from '../list-search.js';
import { BulkRevocation, type RevocationStart } from './bulk-revocation.js';
import { SessionFilters, useSessionFilterLabels } from './session-filters.js';
import { SessionsTable } from './sessions-table.js';

const route = getRouteApi('/sessions');

export function SessionsPage() {
  const search = route.useSearch();
  const labels = useSessionFilterLabels();
  const list = useList('auth', '/sessions', svcSessionSchema, {
    email: search.email,
    organizationId: search.organizationId,
    clientId: search.clientId,
    active: activeOf(search.status),
  });
  const filtered = Object.values(search).some((value) => value !== undefined);
  // A bulk revocation starts from the organization or application the list is narrowed to.
  const start: RevocationStart =
    labels.organization !== null
      ? { scope: 'organization', picked: labels.organization }
      : labels.client !== null
        ? { scope: 'client', picked: labels.client }
        : { scope: 'user', picked: null };
  return (
    <Page
      title="Sessions"
      description="Signed-in sessions of every application, newest first."
      actions={<BulkRevocation start={start} />}
    >
      <SessionFilters />
      <SessionsTable
        list={list}
        showUser
        empty={
          <EmptyState title={filtered ? 'No session matches these filters.' : 'No sessions yet.'}>
            {filtered
              ? 'Clear a filter, or check the address: it must be the whole address.'
              : 'A session starts when a user signs in to an application.'}
          </EmptyState>
        }
      />
    </Page>
  );
}
