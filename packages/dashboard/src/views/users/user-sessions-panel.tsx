import { svcSessionSchema, type SvcUser } from '@svc/contract';
import { useList } from '../../data/queries.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { SessionsTable } from '../sessions/sessions-table.js';

/** The user's token sessions, newest first, each revocable behind a preview of what it ends. */
export function UserSessionsPanel(props: { readonly user: SvcUser }) {
  const list = useList('auth', '/sessions', svcSessionSchema, { userId: props.user.id });
  return (
    <Panel title="Sessions">
      <SessionsTable
        list={list}
        showUser={false}
        empty={
          <EmptyState title="No sessions.">
            A session starts when the user signs in to an application.
          </EmptyState>
        }
      />
    </Panel>
  );
}
