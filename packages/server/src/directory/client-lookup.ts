import type { ClientRecord, ClientRepository } from './repository.js';

/**
 * The client a name stands for where operators may name one either way (docs/reference/application-access.md,
 * "Modes") (`{applicationId}`, a session revocation's `clientApplicationId`): by its clientId first, then by
 * its record id.
 */
export async function findClientByEitherId(
  clients: Pick<ClientRepository, 'findByClientId' | 'findById'>,
  name: string,
): Promise<ClientRecord | undefined> {
  return (await clients.findByClientId(name)) ?? (await clients.findById(name));
}
