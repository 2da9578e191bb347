import { hkdfSync } from 'node:crypto';
import { SecretBox } from '../../../kernel/crypto.js';

/**
 * The user code a device request keeps for its approval page ("check that your device shows XXXX-XXXX",
 * RFC 8628 §3.3.1). Codes are stored only as hashes, yet this page must show the code again after the
 * sign-in in between. So the request keeps it sealed (AES-256-GCM) under a key derived from the id of
 * the browser it is bound to: storage holds that id only as a SHA-256, so the code can be read back only
 * with the browser's own cookie, never from the database alone. The request id is the associated data,
 * so a sealed code cannot be moved to another request.
 */

function boxFor(browserId: string): SecretBox {
  return new SecretBox(
    Buffer.from(hkdfSync('sha256', browserId, Buffer.alloc(0), 'svc device user code', 32)),
  );
}

/** Seals the display form of a user code for the request `requestId` bound to `browserId`. */
export function sealDeviceUserCode(userCode: string, browserId: string, requestId: string): string {
  return boxFor(browserId).encrypt(userCode, requestId);
}

/** The user code sealed for this browser and request; undefined when it does not open (another browser). */
export function openDeviceUserCode(sealed: string, browserId: string, requestId: string): string | undefined {
  try {
    return boxFor(browserId).decrypt(sealed, requestId);
  } catch {
    return undefined;
  }
}
