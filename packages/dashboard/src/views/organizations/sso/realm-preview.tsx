import {
  svcHomeRealmDiscoveryRequestSchema,
  svcHomeRealmDiscoveryResultSchema,
  svcSsoConnectionSchema,
  type SvcHomeRealmDiscoveryResult,
  type SvcOrganization,
} from '@svc/contract';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { apiSend } from '../../../api/client.js';
import { useRecord } from '../../../data/queries.js';
import { Button } from '../../../ui/button.js';
import { TextField } from '../../../ui/fields.js';
import { useContractForm } from '../../../ui/form.js';
import { ErrorText } from '../../../ui/form-parts.js';
import { Panel } from '../../../ui/page.js';
import { ssoPaths } from './sso-paths.js';

type Realm = Extract<SvcHomeRealmDiscoveryResult, { mode: 'sso' }>;

/** The connection an SSO answer names, by its name once read, with a link to its page. */
function ConnectionName(props: { readonly realm: Realm }) {
  const { realm } = props;
  const connection = useRecord('auth', ssoPaths.samlConnection(realm.connectionId), svcSsoConnectionSchema);
  return (
    <Link
      to="/organizations/$organizationId/saml/$connectionId"
      params={{ organizationId: realm.organizationId, connectionId: realm.connectionId }}
    >
      {connection.data?.displayName ?? realm.connectionId}
    </Link>
  );
}

function Answer(props: {
  readonly organization: SvcOrganization;
  readonly email: string;
  readonly result: SvcHomeRealmDiscoveryResult;
}) {
  const { organization, email, result } = props;
  if (result.mode === 'password') {
    return (
      <p>
        <strong>{email}</strong> stays on Svc&apos;s own sign-in page (password, one-time code, provider
        buttons): no enabled SAML connection is found for its domain. A verified domain of an organization
        with no enabled connection leads here too.
      </p>
    );
  }
  return (
    <p>
      <strong>{email}</strong> is sent to the identity provider of <ConnectionName realm={result} />
      {result.organizationId === organization.id ? (
        ', a SAML connection of this organization,'
      ) : (
        <>
          {' '}
          of another organization,{' '}
          <Link to="/organizations/$organizationId" params={{ organizationId: result.organizationId }}>
            {result.organizationName}
          </Link>
          ,
        </>
      )}{' '}
      and signs in to that organization.
    </p>
  );
}

/**
 * "Where do users sign in?": the identify step's home-realm discovery for an address, asked of the
 * server (`POST /home-realm-discovery`), which answers as it would answer the sign-in; nothing starts.
 */
export function RealmPreview(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const [answer, setAnswer] = useState<{ email: string; result: SvcHomeRealmDiscoveryResult }>();
  const example = organization.primaryDomain === null ? '' : `someone@${organization.primaryDomain}`;
  const form = useContractForm({
    schema: svcHomeRealmDiscoveryRequestSchema,
    initial: { email: example },
    toBody: (values) => values,
    submit: async (body) => {
      setAnswer(undefined);
      const result = await apiSend(
        'POST',
        'auth',
        '/home-realm-discovery',
        body,
        svcHomeRealmDiscoveryResultSchema,
      );
      setAnswer({ email: body.email, result });
    },
  });
  return (
    <Panel title="Where do users sign in?">
      <p className="hint">
        An address&apos;s domain decides: an organization&apos;s verified domain first, then a SAML
        connection&apos;s primary domain, then an organization&apos;s.
      </p>
      <form className="inline-form" onSubmit={form.onSubmit} noValidate>
        <TextField label="Email address" type="email" field={form.field('email')} autoComplete="off" />
        <Button type="submit" isPending={form.pending}>
          Look up
        </Button>
      </form>
      <ErrorText message={form.formError} />
      <div role="status" className="access-result">
        {answer !== undefined && (
          <Answer organization={organization} email={answer.email} result={answer.result} />
        )}
      </div>
    </Panel>
  );
}
