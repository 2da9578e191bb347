import { SvcConfigError } from '../kernel/errors.js';

/** A duration option: a whole number of milliseconds, at least 1. */
export function positiveMs(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1) {
    throw new SvcConfigError(`${name} must be a whole number of milliseconds of at least 1, got ${value}.`);
  }
  return value;
}
