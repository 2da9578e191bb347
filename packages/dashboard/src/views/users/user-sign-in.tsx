import {
  svcPasswordResetDeliverySchema,
  updateUserBodySchema,
  type SvcPasswordResetDelivery,
  type SvcUser,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { apiSend } from '../../api/client.js';
import { invalidate, useAction } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { DialogForm } from '../../ui/dialog-form.js';
import { useContractForm } from '../../ui/form.js';
import { Badge } from '../../ui/format.js';
import { Panel } from '../../ui/page.js';
import { notify } from '../../ui/toast.js';
import { PasswordField } from './create-user.js';
import { patchUser, usePatchUser, userPath } from './user-account.js';

function SetPasswordForm(props: { readonly user: SvcUser; readonly close: () => void }) {
  const client = useQueryClient();
  const form = useContractForm({
    schema: updateUserBodySchema,
    initial: { password: '' },
    toBody: (values) => values,
    submit: async (body) => {
      await patchUser(props.user, body);
      await invalidate(client, 'auth', ['/users']);
      notify.success(`Set the password of ${props.user.displayName}.`);
      props.close();
    },
  });
  return (
    <DialogForm form={form} submitLabel="Set password" onCancel={props.close}>
      <PasswordField label="New password" field={form.field('password')} />
    </DialogForm>
  );
}

/** What the toast says of the reset email, by how it left. */
function resetSent(user: SvcUser, result: SvcPasswordResetDelivery): string {
  const until = `Its link works until ${new Date(result.expiresAt).toLocaleString()}.`;
  if (result.delivery === 'outbox') {
    return `The reset email to ${user.email ?? 'the user'} is in the email outbox (no mail server is set). ${until}`;
  }
  return `${result.delivery === 'sent' ? 'Sent' : 'Queued'} a password reset email to ${user.email ?? 'the user'}. ${until}`;
}

/** Sends the user a new reset link (older ones stop working); a refusal (409, 502) says why in a toast. */
function SendPasswordReset(props: { readonly user: SvcUser }) {
  const { user } = props;
  const send = useAction({
    run: () =>
      apiSend('POST', 'auth', `${userPath(user)}/password-reset`, undefined, svcPasswordResetDeliverySchema),
    success: (result) => resetSent(user, result),
  });
  return (
    <Button onPress={() => send.mutate()} isPending={send.isPending} isDisabled={user.email === null}>
      Send reset email
    </Button>
  );
}

/** One line of the panel: what it is, its state, and what can be done about it. */
function Setting(props: { readonly name: string; readonly state: ReactNode; readonly children?: ReactNode }) {
  return (
    <div className="setting">
      <dt>{props.name}</dt>
      <dd>
        <span className="setting-state">{props.state}</span>
        {props.children !== undefined && <span className="row-actions">{props.children}</span>}
      </dd>
    </div>
  );
}

/** How the user signs in and what they may do: the address's proof, the password, the operator role. */
export function UserSignInPanel(props: { readonly user: SvcUser }) {
  const { user } = props;
  const verify = usePatchUser(user, (saved) => `${saved.email ?? 'The address'} is verified.`);
  const removePassword = usePatchUser(user, (saved) => `${saved.displayName} has no password now.`);
  const operator = usePatchUser(user, (saved) =>
    saved.isOperator ? `${saved.displayName} is an operator.` : `${saved.displayName} is no operator now.`,
  );
  return (
    <Panel title="Sign-in and access">
      <dl className="settings">
        <Setting
          name="Email"
          state={
            user.email === null ? (
              <span className="muted">None</span>
            ) : (
              <>
                {user.email} <Badge on={user.emailVerified} yes="Verified" no="Not verified" />
              </>
            )
          }
        >
          {user.email !== null && !user.emailVerified && (
            <ConfirmButton
              label="Mark verified"
              title={`Mark ${user.email} as verified?`}
              tone="primary"
              run={() => verify.mutateAsync({ emailVerified: true })}
            >
              <p>
                Svc then treats the address as proved to be {user.displayName}’s. Do this only when you know
                it is theirs; otherwise let them prove it with the verification email.
              </p>
            </ConfirmButton>
          )}
        </Setting>
        <Setting name="Password" state={<Badge on={user.hasPassword} yes="Set" no="None" />}>
          <ModalDialog
            title={`${user.hasPassword ? 'Change' : 'Set'} the password of ${user.displayName}`}
            trigger={<Button>{user.hasPassword ? 'Change password' : 'Set password'}</Button>}
          >
            {(close) => <SetPasswordForm user={user} close={close} />}
          </ModalDialog>
          <SendPasswordReset user={user} />
          {user.hasPassword && (
            <ConfirmButton
              label="Remove password"
              title={`Remove the password of ${user.displayName}?`}
              run={() => removePassword.mutateAsync({ password: null })}
            >
              <p>
                Their password stops working now. They sign in without one (an email code, a magic link, SSO)
                until they set a new one through a password reset. Their sessions go on.
              </p>
            </ConfirmButton>
          )}
        </Setting>
        <Setting name="Operator" state={<Badge on={user.isOperator} yes="Operator" no="No" />}>
          {user.isOperator ? (
            <ConfirmButton
              key="remove-operator"
              label="Remove operator"
              title={`Remove ${user.displayName} as an operator?`}
              run={() => operator.mutateAsync({ isOperator: false })}
            >
              <p>
                They can no longer sign in to this console or call the operator APIs. The last active operator
                cannot be removed.
              </p>
            </ConfirmButton>
          ) : (
            <ConfirmButton
              key="make-operator"
              label="Make operator"
              title={`Make ${user.displayName} an operator?`}
              tone="primary"
              run={() => operator.mutateAsync({ isOperator: true })}
            >
              <p>
                They can then sign in to this console and do everything it does: manage every organization,
                user, application and policy, and end anyone’s sessions.
              </p>
            </ConfirmButton>
          )}
        </Setting>
      </dl>
    </Panel>
  );
}
