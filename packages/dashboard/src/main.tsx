import type { SvcDashboardSession } from '@svc/contract';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { loadSession, messageOf, rememberSessionToken, signIn } from './api/client.js';
import { createQueryClient } from './data/query-client.js';
import { router } from './router.js';
import { SessionContext } from './shell/session.js';
import './styles.css';

const root = document.getElementById('root');
if (root === null) throw new Error('index.html has no #root');
const view = createRoot(root);

function render(session: SvcDashboardSession) {
  rememberSessionToken(session);
  view.render(
    <StrictMode>
      <SessionContext.Provider value={session}>
        <QueryClientProvider client={createQueryClient()}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </SessionContext.Provider>
    </StrictMode>,
  );
}

// Who is signed in decides everything below; without a session the hosted sign-in comes back here.
loadSession().then(
  (session) => (session === undefined ? signIn() : render(session)),
  (error: unknown) =>
    view.render(
      <main>
        <p className="error" role="alert">
          {messageOf(error)} Reload the page to try again.
        </p>
      </main>,
    ),
);
