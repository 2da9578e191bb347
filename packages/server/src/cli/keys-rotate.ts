import { createSvc } from '../app/create-svc.js';

/** `svc keys rotate`: a new active key now; the previous one stays in the JWKS for the grace window. */
export async function keysRotateCommand(): Promise<void> {
  const svc = await createSvc({ keyRotationSchedule: false });
  try {
    const settings = await svc.securitySettings.get();
    const kid = await svc.signingKeys.rotate();
    console.log(
      `New signing key ${kid} is active. The previous key stays published for ${settings.signingKeyGraceWindowDays} day(s).`,
    );
  } finally {
    await svc.close();
  }
}
