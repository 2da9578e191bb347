import { svcClientSchema, svcOrganizationSchema, svcUserSchema } from '@svc/contract';
import type { ReactNode } from 'react';
import type { QueryValues } from '../api/client.js';
import { useRecord } from '../data/queries.js';
import { RecordPicker, type Picked } from '../ui/record-picker.js';
import { clientPath } from './applications/client-paths.js';

interface PickerProps {
  readonly label: string;
  readonly value: Picked | null;
  readonly onChange: (value: Picked | null) => void;
  readonly description?: ReactNode;
  readonly errorMessage?: string | undefined;
  readonly isRequired?: boolean;
  /** Further filters of the list searched (`{ active: true }`). */
  readonly query?: QueryValues;
}

/** A user, searched by email or name (`GET /users?query=`); the pick's id is the user id. */
export function UserPicker(props: PickerProps) {
  return (
    <RecordPicker
      {...props}
      path="/users"
      schema={svcUserSchema}
      placeholder="Email or name"
      itemId={(user) => user.id}
      itemLabel={(user) => (user.email === null ? user.displayName : `${user.displayName} <${user.email}>`)}
      itemDetail={(user) => (user.active ? null : 'Deactivated')}
    />
  );
}

/** An organization, searched by name or slug (`GET /organizations?query=`). */
export function OrganizationPicker(props: PickerProps) {
  return (
    <RecordPicker
      {...props}
      path="/organizations"
      schema={svcOrganizationSchema}
      placeholder="Name or slug"
      itemId={(organization) => organization.id}
      itemLabel={(organization) => organization.name}
      itemDetail={(organization) =>
        organization.active ? organization.slug : `${organization.slug}, deactivated`
      }
    />
  );
}

/** An application, searched by name or client ID (`GET /clients?query=`); the pick's id is the clientId. */
export function ClientPicker(props: PickerProps) {
  return (
    <RecordPicker
      {...props}
      path="/clients"
      schema={svcClientSchema}
      placeholder="Name or client ID"
      itemId={(client) => client.clientId}
      itemLabel={(client) => client.name}
      itemDetail={(client) => (client.active ? client.clientId : `${client.clientId}, deactivated`)}
    />
  );
}

/** A pick named by a link's id alone: the id at once, the record's name once it is read. */
function picked(id: string | undefined, label: string | undefined): Picked | null {
  return id === undefined ? null : { id, label: label ?? id };
}

/** The organization a link names (`?organizationId=`), as its picker shows it. */
export function usePickedOrganization(organizationId: string | undefined): Picked | null {
  const organization = useRecord(
    'auth',
    `/organizations/${encodeURIComponent(organizationId ?? '')}`,
    svcOrganizationSchema,
    undefined,
    { enabled: organizationId !== undefined },
  );
  return picked(organizationId, organization.data?.name);
}

/** The application a link names (`?clientId=`), as its picker shows it. */
export function usePickedClient(clientId: string | undefined): Picked | null {
  const client = useRecord('auth', clientPath(clientId ?? ''), svcClientSchema, undefined, {
    enabled: clientId !== undefined,
  });
  return picked(clientId, client.data?.name);
}
