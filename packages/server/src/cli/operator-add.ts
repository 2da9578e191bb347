import { createSvc } from '../app/create-svc.js';

/** `svc operator add <email>`: marks the user as operator, creating a passwordless user when missing. */
export async function operatorAddCommand(email: string): Promise<void> {
  const svc = await createSvc({ keyRotationSchedule: false });
  try {
    const user = await svc.admin.setOperatorAsync(email);
    console.log(`${user.email} (id ${user.id}) is now an operator.`);
  } finally {
    await svc.close();
  }
}
