import { sessionListQuerySchema, svcClientSchema, svcOrganizationSchema } from '@svc/contract';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useRecord } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { TextField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import type { Picked } from '../../ui/record-picker.js';
import { clientPath } from '../applications/client-paths.js';
import { ClientPicker, OrganizationPicker } from '../pickers.js';
import { StatusFilter } from '../status-filter.js';

const route = getRouteApi('/sessions');

const emailFilterSchema = sessionListQuerySchema.pick({ email: true });

/** The organization and application the link names, by their names once they are read. */
export function useSessionFilterLabels() {
  const search = route.useSearch();
  const organization = useRecord(
    'auth',
    `/organizations/${encodeURIComponent(search.organizationId ?? '')}`,
    svcOrganizationSchema,
    undefined,
    { enabled: search.organizationId !== undefined },
  );
  const client = useRecord('auth', clientPath(search.clientId ?? ''), svcClientSchema, undefined, {
    enabled: search.clientId !== undefined,
  });
  const picked = (id: string | undefined, label: string | undefined): Picked | null =>
    id === undefined ? null : { id, label: label ?? id };
  return {
    organization: picked(search.organizationId, organization.data?.name),
    client: picked(search.clientId, client.data?.name),
  };
}

/** A user by their exact address: looked up when the operator asks, as the API compares whole addresses. */
function EmailFilter(props: {
  readonly email: string | undefined;
  readonly onChange: (email?: string) => void;
}) {
  const form = useContractForm({
    schema: emailFilterSchema,
    initial: { email: props.email ?? '' },
    toBody: ({ email }) => ({ email: email.trim() === '' ? undefined : email }),
    submit: async (body) => props.onChange(body.email),
  });
  return (
    <form onSubmit={form.onSubmit} noValidate className="email-filter">
      <TextField
        label="User's email"
        type="email"
        field={form.field('email')}
        placeholder="ada@example.com"
      />
      <Button type="submit">Find</Button>
    </form>
  );
}

/** The filters of the sessions list, each kept in the link. */
export function SessionFilters() {
  const search = route.useSearch();
  const navigate = useNavigate({ from: '/sessions' });
  const labels = useSessionFilterLabels();
  const set = (changes: Partial<typeof search>) =>
    void navigate({ search: (prev) => ({ ...prev, ...changes }), replace: true });
  return (
    <div className="filters">
      <EmailFilter email={search.email} onChange={(email) => set({ email })} />
      <OrganizationPicker
        label="Organization"
        value={labels.organization}
        onChange={(organization) => set({ organizationId: organization?.id })}
      />
      <ClientPicker
        label="Application"
        value={labels.client}
        onChange={(client) => set({ clientId: client?.id })}
      />
      <StatusFilter value={search.status} onChange={(status) => set({ status })} inactiveLabel="Ended" />
    </div>
  );
}
