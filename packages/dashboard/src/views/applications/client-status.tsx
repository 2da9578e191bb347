import { svcClientSchema, type SvcClient } from '@svc/contract';
import { apiSend } from '../../api/client.js';
import { useAction } from '../../data/queries.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { clientPath } from './client-paths.js';

/** Deactivate or reactivate a client (PATCH `active`), behind a confirmation that says what happens. */
export function ClientStatus(props: { readonly client: SvcClient }) {
  const { client } = props;
  const action = useAction({
    run: (active: boolean) =>
      apiSend('PATCH', 'auth', clientPath(client.clientId), { active }, svcClientSchema),
    refresh: ['/clients', '/sessions'],
    success: (_result, active) => `${active ? 'Reactivated' : 'Deactivated'} ${client.name}.`,
    quiet: true,
  });
  if (client.active) {
    return (
      <ConfirmButton
        label="Deactivate"
        title={`Deactivate ${client.name}?`}
        triggerTone="danger"
        run={() => action.mutateAsync(false)}
      >
        <p>
          Every session of {client.name} is revoked now: its access tokens stop working and its refresh tokens
          are refused. Until it is reactivated, it gets invalid_client at /authorize, /token and the sign-in
          helpers, and its secret no longer authenticates it.
        </p>
        <p>Its settings, secret and access rules are kept.</p>
      </ConfirmButton>
    );
  }
  return (
    <ConfirmButton
      label="Reactivate"
      title={`Reactivate ${client.name}?`}
      tone="primary"
      run={() => action.mutateAsync(true)}
    >
      <p>
        {client.name} can sign users in and get tokens again, with its current settings and secret. The
        sessions revoked when it was deactivated stay revoked: its users sign in again.
      </p>
    </ConfirmButton>
  );
}
