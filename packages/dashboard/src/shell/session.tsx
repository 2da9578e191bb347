import type { SvcDashboardSession } from '@svc/contract';
import { createContext, useContext } from 'react';

export const SessionContext = createContext<SvcDashboardSession | undefined>(undefined);

/** The signed-in operator (the app renders nothing below the shell without one). */
export function useOperator(): SvcDashboardSession {
  const session = useContext(SessionContext);
  if (session === undefined) throw new Error('useOperator() outside the signed-in console');
  return session;
}
