import { createSvc } from '../app/create-svc.js';
import { printDemo } from './output.js';

/** `svc seed-demo`: seeds the demo data (idempotent) and prints it. */
export async function seedDemoCommand(): Promise<void> {
  const svc = await createSvc({ seedDemo: true, keyRotationSchedule: false });
  try {
    if (svc.demo !== undefined) printDemo(svc.demo);
  } finally {
    await svc.close();
  }
}
