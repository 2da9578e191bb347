export * from './paging.js';
export * from './audit.js';
export * from './headless.js';
export * from './admin.js';
export * from './auth.js';
export * from './email.js';
export * from './invitations.js';
export * from './mfa.js';
