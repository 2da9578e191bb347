import type { SvcDashboardSession } from '@svc/contract';
import { useEffect, useMemo, useState } from 'react';
import { DASHBOARD_BASE, loadSession, messageOf, operatorApi, signIn } from './api.js';
import { ClientsView } from './views/clients.js';
import { SessionsView } from './views/sessions.js';
import { UsersView } from './views/users.js';

const VIEWS = { users: 'Users', clients: 'Clients', sessions: 'Sessions' } as const;
type View = keyof typeof VIEWS;

function Dashboard(props: { readonly session: SvcDashboardSession }) {
  const { session } = props;
  const [view, setView] = useState<View>('users');
  const api = useMemo(() => operatorApi(session), [session]);
  return (
    <>
      <header className="top">
        <strong className="brand">Svc</strong>
        <nav aria-label="Views">
          {(Object.keys(VIEWS) as View[]).map((key) => (
            <button
              key={key}
              type="button"
              className="nav"
              aria-current={view === key ? 'page' : undefined}
              onClick={() => setView(key)}
            >
              {VIEWS[key]}
            </button>
          ))}
        </nav>
        <div className="who">
          <span>
            {session.user.displayName}
            {session.user.email !== null && <span className="muted"> {session.user.email}</span>}
          </span>
          {/* A form post, not fetch: the server ends the session and sends the browser to the hosted logout. */}
          <form method="post" action={`${DASHBOARD_BASE}/logout`}>
            <input type="hidden" name="_csrf" value={session.csrfToken} />
            <button type="submit">Sign out</button>
          </form>
        </div>
      </header>
      <main>
        {view === 'users' && <UsersView api={api} />}
        {view === 'clients' && <ClientsView api={api} />}
        {view === 'sessions' && <SessionsView api={api} />}
      </main>
    </>
  );
}

type Loaded =
  | { readonly kind: 'loading' }
  | { readonly kind: 'signed-in'; readonly session: SvcDashboardSession }
  | { readonly kind: 'failed'; readonly message: string };

export function App() {
  const [loaded, setLoaded] = useState<Loaded>({ kind: 'loading' });
  useEffect(() => {
    loadSession().then(
      (session) => {
        if (session === undefined) signIn();
        else setLoaded({ kind: 'signed-in', session });
      },
      (error: unknown) => setLoaded({ kind: 'failed', message: messageOf(error) }),
    );
  }, []);
  if (loaded.kind === 'signed-in') return <Dashboard session={loaded.session} />;
  return (
    <main>
      {loaded.kind === 'failed' ? (
        <p className="error" role="alert">
          {loaded.message}
        </p>
      ) : (
        <p className="muted">Loading…</p>
      )}
    </main>
  );
}
