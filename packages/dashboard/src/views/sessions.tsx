import {
  pageSchema,
  svcAdminSessionRevocationPreviewSchema,
  svcAdminSessionRevocationResultSchema,
  svcSessionSchema,
  type SvcSession,
} from '@svc/contract';
import { useCallback, useState } from 'react';
import { messageOf, type OperatorApi } from '../api.js';
import { PagedTable, Time, type Column } from '../paged-table.js';
import { usePaged } from '../use-paged.js';

const sessionsPage = pageSchema(svcSessionSchema);

function SessionStatus(props: { readonly session: SvcSession }) {
  const { session } = props;
  if (session.active) return <span className="badge badge-on">Active</span>;
  return (
    <span className="badge" title={session.revokedReason ?? undefined}>
      {session.revokedAt === null ? 'Expired' : 'Revoked'}
    </span>
  );
}

const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

type Revoking =
  | { readonly step: 'idle' }
  | { readonly step: 'busy' }
  | {
      readonly step: 'confirm';
      readonly matchedSessions: number;
      /** The user's browser sessions the revocation ends too (their hosted sign-in). */
      readonly activeBrowserSessions: number;
    };

/**
 * Revokes one session the way the API asks for it: a preview says how many sessions the selector
 * matches, the operator confirms that count, and the execution sends it as `expectedMatchedSessions`
 * so that nothing else is revoked if the sessions changed meanwhile.
 */
function RevokeSession(props: {
  readonly api: OperatorApi;
  readonly session: SvcSession;
  readonly onRevoked: () => void;
}) {
  const { api, session, onRevoked } = props;
  const [state, setState] = useState<Revoking>({ step: 'idle' });
  const [error, setError] = useState<string>();
  const selector = { sessionId: session.id };
  const run = async (action: () => Promise<void>) => {
    setState({ step: 'busy' });
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(messageOf(failure));
      setState({ step: 'idle' });
    }
  };
  const preview = () =>
    run(async () => {
      const { matchedSessions, activeBrowserSessions } = await api.post(
        '/sessions/revocation/preview',
        selector,
        svcAdminSessionRevocationPreviewSchema,
      );
      setState({ step: 'confirm', matchedSessions, activeBrowserSessions });
    });
  const revoke = (matchedSessions: number) =>
    run(async () => {
      const body = { ...selector, confirm: true, expectedMatchedSessions: matchedSessions };
      await api.post('/sessions/revocation', body, svcAdminSessionRevocationResultSchema);
      setState({ step: 'idle' });
      onRevoked();
    });

  if (!session.active) return null;
  return (
    <div className="actions">
      {state.step === 'confirm' ? (
        <>
          <span>
            {`Revoke ${plural(state.matchedSessions, 'session')}${
              state.activeBrowserSessions === 0
                ? ''
                : ` and end ${plural(state.activeBrowserSessions, 'browser session')}`
            }?`}
          </span>
          <button type="button" className="danger" onClick={() => void revoke(state.matchedSessions)}>
            Confirm
          </button>
          <button type="button" onClick={() => setState({ step: 'idle' })}>
            Cancel
          </button>
        </>
      ) : (
        <button type="button" disabled={state.step === 'busy'} onClick={() => void preview()}>
          Revoke
        </button>
      )}
      {error !== undefined && (
        <span className="error" role="alert">
          {error}
        </span>
      )}
    </div>
  );
}

export function SessionsView(props: { readonly api: OperatorApi }) {
  const { api } = props;
  const paged = usePaged(
    useCallback((cursor: string | null) => api.list('/sessions', sessionsPage, cursor), [api]),
  );
  const columns: readonly Column<SvcSession>[] = [
    { label: 'User', cell: (session) => <code>{session.userId}</code> },
    { label: 'Client', cell: (session) => <code>{session.clientId}</code> },
    { label: 'Created', cell: (session) => <Time iso={session.createdAt} /> },
    { label: 'Last seen', cell: (session) => <Time iso={session.lastSeenAt} /> },
    { label: 'Status', cell: (session) => <SessionStatus session={session} /> },
    {
      label: 'Actions',
      cell: (session) => <RevokeSession api={api} session={session} onRevoked={paged.reload} />,
    },
  ];
  return <PagedTable caption="Sessions" columns={columns} rowKey={(session) => session.id} paged={paged} />;
}
