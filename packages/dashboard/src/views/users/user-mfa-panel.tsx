import { svcUserMfaResetResultSchema, svcUserMfaSchema, type SvcUser, type SvcUserMfa } from '@svc/contract';
import { apiSend } from '../../api/client.js';
import { useAction, useRecord } from '../../data/queries.js';
import { ConfirmButton } from '../../ui/dialog.js';
import { Badge, plural, Time } from '../../ui/format.js';
import { EmptyState, Loading, Panel } from '../../ui/page.js';
import { userPath } from './user-account.js';

type Authenticator = SvcUserMfa['totp'][number];

function AuthenticatorRow(props: { readonly authenticator: Authenticator }) {
  const { authenticator } = props;
  return (
    <li className="factor">
      <span>
        Authenticator app <strong>{authenticator.label}</strong>{' '}
        <Badge on={authenticator.confirmed} yes="Confirmed" no="Enrollment not finished" />
      </span>
      <span className="muted">
        Added <Time iso={authenticator.createdAt} />
      </span>
    </li>
  );
}

/**
 * The user's second factors (GET /users/{id}/mfa), never a secret, and the reset that removes them all
 * for a user who lost their authenticator (POST /users/{id}/mfa/reset).
 */
export function UserMfaPanel(props: { readonly user: SvcUser }) {
  const { user } = props;
  const path = `${userPath(user)}/mfa`;
  const factors = useRecord('auth', path, svcUserMfaSchema);
  const reset = useAction({
    run: () => apiSend('POST', 'auth', `${path}/reset`, undefined, svcUserMfaResetResultSchema),
    refresh: [path],
    success: (result) =>
      `Removed ${plural(result.removedAuthenticators, 'authenticator')} and ${plural(result.removedRecoveryCodes, 'recovery code')}.`,
    quiet: true,
  });
  const mfa = factors.data;
  const hasFactors = mfa !== undefined && (mfa.totp.length > 0 || mfa.recoveryCodesRemaining > 0);
  return (
    <Panel
      title="MFA"
      actions={
        hasFactors && (
          <ConfirmButton
            label="Reset MFA"
            title={`Reset the MFA of ${user.displayName}?`}
            run={() => reset.mutateAsync()}
          >
            <p>
              Every authenticator and recovery code of {user.displayName} is removed now. Do this only once
              you know it is them asking, for example after they lost their phone. Their next sign-in asks
              them to enroll a new authenticator where MFA is required.
            </p>
          </ConfirmButton>
        )
      }
    >
      {mfa === undefined ? (
        <Loading error={factors.error} retry={() => void factors.refetch()} />
      ) : hasFactors ? (
        <>
          <ul className="factors">
            {mfa.totp.map((authenticator) => (
              <AuthenticatorRow key={authenticator.id} authenticator={authenticator} />
            ))}
          </ul>
          <p>{plural(mfa.recoveryCodesRemaining, 'unused recovery code')}.</p>
        </>
      ) : (
        <EmptyState title="No second factor.">
          The user enrolls an authenticator app at sign-in where MFA is required, or from their account where
          self-enrollment is on.
        </EmptyState>
      )}
    </Panel>
  );
}
