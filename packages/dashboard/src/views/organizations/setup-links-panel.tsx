import {
  svcSsoPortalLinkCreatedSchema,
  svcSsoPortalLinkSchema,
  type SvcOrganization,
  type SvcSsoPortalLink,
  type SvcSsoPortalLinkStatus,
} from '@svc/contract';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiSend } from '../../api/client.js';
import { invalidate, useAction, useList } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { DialogButtons, ErrorText } from '../../ui/form-parts.js';
import { Time } from '../../ui/format.js';
import { EmptyState, Panel } from '../../ui/page.js';
import { OneTimeSecret } from '../../ui/secret.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { notify } from '../../ui/toast.js';
import { useCall } from '../../ui/use-call.js';
import { ssoPaths } from './sso/sso-paths.js';

const STATUS_LABELS: Readonly<Record<SvcSsoPortalLinkStatus, string>> = {
  unused: 'Not opened yet',
  used: 'Opened',
  revoked: 'Revoked',
  expired: 'Expired',
};

function RevokeLink(props: { readonly link: SvcSsoPortalLink }) {
  const { link } = props;
  const revoke = useAction({
    run: () =>
      apiSend('POST', 'auth', `${ssoPaths.setupLink(link.id)}/revoke`, undefined, svcSsoPortalLinkSchema),
    refresh: [ssoPaths.setupLinks(link.organizationId)],
    success: 'Revoked the setup link.',
    quiet: true,
  });
  if (link.status === 'revoked' || link.status === 'expired') return null;
  return (
    <ConfirmButton label="Revoke" title="Revoke this setup link?" run={() => revoke.mutateAsync()}>
      <p>
        The link stops working now, and whoever opened it is signed out of the setup portal at once, on every
        node. What they set up stays. To let them go on, send a new link.
      </p>
    </ConfirmButton>
  );
}

const COLUMNS: readonly TableColumn<SvcSsoPortalLink>[] = [
  { id: 'created', label: 'Created', cell: (link) => <Time iso={link.createdAt} />, isRowHeader: true },
  {
    id: 'status',
    label: 'Status',
    cell: (link) => (
      <span className={link.status === 'unused' || link.status === 'used' ? 'badge badge-on' : 'badge'}>
        {STATUS_LABELS[link.status]}
      </span>
    ),
  },
  { id: 'opened', label: 'Opened', cell: (link) => <Time iso={link.usedAt} /> },
  { id: 'expires', label: 'Expires', cell: (link) => <Time iso={link.expiresAt} /> },
  { id: 'revoked', label: 'Revoked', cell: (link) => <Time iso={link.revokedAt} /> },
  { id: 'actions', label: 'Actions', cell: (link) => <RevokeLink link={link} /> },
];

/**
 * "New setup link": what the link lets its holder do, then the link, which the server answers this once
 * (the dialog then closes only by its button).
 */
function CreateLink(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const client = useQueryClient();
  const [url, setUrl] = useState<string>();
  const call = useCall();
  const create = () =>
    call.run(async () => {
      const created = await apiSend(
        'POST',
        'auth',
        ssoPaths.setupLinks(organization.id),
        undefined,
        svcSsoPortalLinkCreatedSchema,
      );
      await invalidate(client, 'auth', [ssoPaths.setupLinks(organization.id)]);
      notify.success('Made a setup link.');
      setUrl(created.url);
    });
  return (
    <ModalDialog
      title={url === undefined ? `A setup link for ${organization.name}` : 'The setup link'}
      isDismissable={url === undefined}
      onOpenChange={(open) => {
        if (!open) {
          setUrl(undefined);
          call.clearError();
        }
      }}
      trigger={<Button tone="primary">New setup link</Button>}
    >
      {(close) =>
        url === undefined ? (
          <>
            <div className="dialog-body">
              <p>
                Whoever opens the link can, for the next 8 hours, add and enable SAML connections of{' '}
                {organization.name}, import their IdP&apos;s metadata, run test sign-ins and verify its
                domains; nothing of other organizations. It can be opened once, within seven days. Send it to
                the customer&apos;s IT admin only.
              </p>
            </div>
            <ErrorText message={call.error} />
            <DialogButtons close={close} pending={call.pending} onPress={() => void create()}>
              Make the link
            </DialogButtons>
          </>
        ) : (
          <OneTimeSecret
            label="Setup link"
            value={url}
            onDone={close}
            notice="Copy the link now: this is the only time it is shown. Svc keeps only its hash; if it is lost, revoke it and make another."
            description="Send it to the customer's admin; it works once."
          />
        )
      }
    </ModalDialog>
  );
}

/** The customer SSO setup portal's links of the organization: make one (shown once), the list, revoke. */
export function SetupLinksPanel(props: { readonly organization: SvcOrganization }) {
  const { organization } = props;
  const list = useList('auth', ssoPaths.setupLinks(organization.id), svcSsoPortalLinkSchema);
  return (
    <Panel title="Setup links" actions={<CreateLink organization={organization} />}>
      <p className="hint">
        A setup link lets the customer&apos;s admin set up the organization&apos;s SAML single sign-on and
        verify its domains in the setup portal, without a console account.
      </p>
      <DataTable
        label="Setup links"
        columns={COLUMNS}
        list={list}
        rowKey={(link) => link.id}
        empty={
          <EmptyState title="No setup links.">
            Make one for the customer&apos;s admin; it is shown once, when it is made.
          </EmptyState>
        }
      />
    </Panel>
  );
}
