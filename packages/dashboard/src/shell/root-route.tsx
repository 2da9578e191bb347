import { createRootRoute, Link } from '@tanstack/react-router';
import { EmptyState, Page } from '../ui/page.js';
import { Layout } from './layout.js';

function NotFound() {
  return (
    <Page title="Not found">
      <EmptyState title="There is no such page in the console.">
        <Link to="/">Go to the console’s home</Link>
      </EmptyState>
    </Page>
  );
}

/** The root of every console route: the frame around each page. */
export const rootRoute = createRootRoute({ component: Layout, notFoundComponent: NotFound });
