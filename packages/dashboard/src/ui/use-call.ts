import { useState } from 'react';
import { messageOf } from '../api/client.js';

/**
 * A call made on the operator's request outside a form (a confirmation, a preview, a check): whether it
 * runs now, and the server's message when it failed. `run` answers whether it succeeded.
 */
export function useCall() {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string>();
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setPending(true);
    setError(undefined);
    try {
      await action();
      return true;
    } catch (failure) {
      setError(messageOf(failure));
      return false;
    } finally {
      setPending(false);
    }
  };
  return { pending, error, run, clearError: () => setError(undefined) };
}
