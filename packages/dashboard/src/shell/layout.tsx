import { Link, Outlet, useRouter, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { RouterProvider as AriaRouterProvider } from 'react-aria-components';
import { DASHBOARD_BASE } from '../api/base.js';
import { Toasts } from '../ui/toast.js';
import { NAVIGATION } from './navigation.js';
import { useOperator } from './session.js';
import { SchemeSelect } from './theme.js';

/**
 * The console's frame: a skip link, the header (who is signed in, the colour scheme, sign out), the
 * sections' navigation (a sidebar, or behind a Menu button on a phone) and the page.
 */
export function Layout() {
  const session = useOperator();
  const router = useRouter();
  const pathname = useRouterState({ select: (state) => state.location.pathname });
  const [navOpen, setNavOpen] = useState(false);
  useEffect(() => setNavOpen(false), [pathname]);
  return (
    // React Aria's links and rows (`href`) navigate through the router, not by reloading the page.
    <AriaRouterProvider
      navigate={(to) => void router.navigate({ to })}
      useHref={(to) => router.buildLocation({ to }).href}
    >
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <button
          type="button"
          className="nav-toggle"
          aria-expanded={navOpen}
          aria-controls="sections"
          onClick={() => setNavOpen((open) => !open)}
        >
          Menu
        </button>
        <Link to="/" className="brand">
          Svc
        </Link>
        <div className="who">
          <span className="who-name">
            {session.user.displayName}
            {session.user.email !== null && <span className="muted"> {session.user.email}</span>}
          </span>
          <SchemeSelect />
          {/* A form post, not fetch: the server ends the session and sends the browser to the hosted logout. */}
          <form method="post" action={`${DASHBOARD_BASE}/logout`}>
            <input type="hidden" name="_csrf" value={session.csrfToken} />
            <button type="submit" className="button button-quiet">
              Sign out
            </button>
          </form>
        </div>
      </header>
      <div className="frame">
        <nav id="sections" aria-label="Sections" className={navOpen ? 'sections open' : 'sections'}>
          {NAVIGATION.map((group) => (
            <div key={group.title} className="nav-group">
              <p className="nav-title">{group.title}</p>
              <ul>
                {group.items.map((item) => (
                  <li key={item.to}>
                    <Link to={item.to} className="nav-link" activeProps={{ 'aria-current': 'page' }}>
                      {item.label}
                    </Link>
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </nav>
        <main id="main" tabIndex={-1}>
          <Outlet />
        </main>
      </div>
      <Toasts />
    </AriaRouterProvider>
  );
}
