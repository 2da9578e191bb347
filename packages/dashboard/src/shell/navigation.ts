/**
 * The console's sections as the sidebar groups them; each `to` is a route of router.tsx (and its first
 * segment one of the contract's DASHBOARD_SECTIONS).
 */
export const NAVIGATION = [
  { title: 'Monitor', items: [{ to: '/overview', label: 'Overview' }] },
  {
    title: 'Directory',
    items: [
      { to: '/organizations', label: 'Organizations' },
      { to: '/users', label: 'Users' },
      { to: '/calendar', label: 'Calendar' },
    ],
  },
  { title: 'Applications', items: [{ to: '/applications', label: 'Applications' }] },
  {
    title: 'Security',
    items: [
      { to: '/authorization', label: 'Authorization' },
      { to: '/policies', label: 'Policies' },
      { to: '/sessions', label: 'Sessions' },
      { to: '/audit', label: 'Audit' },
    ],
  },
  { title: 'Messaging', items: [{ to: '/email', label: 'Email' }] },
] as const;
