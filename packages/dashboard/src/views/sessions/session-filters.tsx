import { sessionListQuerySchema } from '@svc/contract';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { Button } from '../../ui/button.js';
import { TextField } from '../../ui/fields.js';
import { useContractForm } from '../../ui/form.js';
import { ClientPicker, OrganizationPicker, usePickedClient, usePickedOrganization } from '../pickers.js';
import { StatusFilter } from '../status-filter.js';

const route = getRouteApi('/sessions');

const emailFilterSchema = sessionListQuerySchema.pick({ email: true });

/** The organization and application the link names, by their names once they are read. */
export function useSessionFilterLabels() {
  const search = route.useSearch();
  return {
    organization: usePickedOrganization(search.organizationId),
    client: usePickedClient(search.clientId),
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
