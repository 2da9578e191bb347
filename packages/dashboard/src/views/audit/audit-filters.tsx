import { auditEventFilterSchema } from '@svc/contract';
import { Link, useNavigate } from '@tanstack/react-router';
import { isoOfLocal, localDateTime } from '../../ui/date-time.js';
import { TextField } from '../../ui/fields.js';
import { FormActions } from '../../ui/form-parts.js';
import { useContractForm } from '../../ui/form.js';
import type { AuditSearch } from './audit-search.js';

const given = (value: string): string | undefined => (value.trim() === '' ? undefined : value.trim());

/**
 * The audit stream's filters as a form: applying it puts them in the link (checked first with the
 * schema the API checks them with, so a bad kind or an inverted window is shown beside its field).
 * The form starts from the link's filters; the page remounts it when the link changes.
 */
export function AuditFilters(props: { readonly search: AuditSearch }) {
  const { search } = props;
  const navigate = useNavigate({ from: '/audit' });
  const form = useContractForm({
    schema: auditEventFilterSchema,
    initial: {
      kind: search.kind ?? '',
      actorId: search.actorId ?? '',
      subjectId: search.subjectId ?? '',
      organizationId: search.organizationId ?? '',
      userId: search.userId ?? '',
      clientId: search.clientId ?? '',
      from: localDateTime(search.from),
      to: localDateTime(search.to),
    },
    toBody: (values) => ({
      kind: given(values.kind),
      actorId: given(values.actorId),
      subjectId: given(values.subjectId),
      organizationId: given(values.organizationId),
      userId: given(values.userId),
      clientId: given(values.clientId),
      from: isoOfLocal(values.from),
      to: isoOfLocal(values.to),
    }),
    submit: (body) => navigate({ search: body }),
  });
  return (
    <form className="audit-filters" aria-label="Filters" onSubmit={form.onSubmit}>
      <div className="filter-grid">
        <TextField
          label="Kind"
          field={form.field('kind')}
          placeholder="admin.*"
          description="A kind, a prefix ending in .*, or several separated by commas."
        />
        <TextField label="Actor" field={form.field('actorId')} placeholder="Id of who did it" />
        <TextField label="Subject" field={form.field('subjectId')} placeholder="Id of what it is about" />
        <TextField label="User" field={form.field('userId')} placeholder="usr_…" />
        <TextField label="Organization" field={form.field('organizationId')} placeholder="org_…" />
        <TextField label="Application" field={form.field('clientId')} placeholder="Client id" />
        <TextField
          label="From"
          type="datetime-local"
          field={form.field('from')}
          description="Included, your time zone."
        />
        <TextField label="To" type="datetime-local" field={form.field('to')} description="Not included." />
      </div>
      <FormActions form={form} submit="Apply filters">
        <Link to="/audit" search={{}} className="button button-quiet">
          Clear
        </Link>
      </FormActions>
    </form>
  );
}
