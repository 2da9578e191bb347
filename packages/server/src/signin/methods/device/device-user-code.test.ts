import { describe, expect, it } from 'vitest';
import { randomIds } from '../../../kernel/ids.js';
import { openDeviceUserCode, sealDeviceUserCode } from './device-user-code.js';

describe('the sealed user code of a device request', () => {
  const browserId = randomIds.secret();

  it('opens only with the browser id and the request id it was sealed for', () => {
    const sealed = sealDeviceUserCode('BCDF-GHJK', browserId, 'azr_1');
    expect(sealed).not.toContain('BCDF');
    expect(openDeviceUserCode(sealed, browserId, 'azr_1')).toBe('BCDF-GHJK');
    expect(openDeviceUserCode(sealed, randomIds.secret(), 'azr_1')).toBeUndefined();
    expect(openDeviceUserCode(sealed, browserId, 'azr_2')).toBeUndefined();
    expect(openDeviceUserCode('not sealed', browserId, 'azr_1')).toBeUndefined();
  });

  it('differs each time, so equal codes cannot be told apart in storage', () => {
    expect(sealDeviceUserCode('BCDF-GHJK', browserId, 'azr_1')).not.toBe(
      sealDeviceUserCode('BCDF-GHJK', browserId, 'azr_1'),
    );
  });
});
