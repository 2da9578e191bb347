import { svcClientSchema, svcOrganizationSchema, svcUserSchema } from '@svc/contract';
import type { ReactNode } from 'react';
import { RecordPicker, type Picked } from '../ui/record-picker.js';

interface PickerProps {
  readonly label: string;
  readonly value: Picked | null;
  readonly onChange: (value: Picked | null) => void;
  readonly description?: ReactNode;
  readonly errorMessage?: string | undefined;
  readonly isRequired?: boolean;
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
