#!/usr/bin/env node
// Takes the README's screenshots of the operator console: starts a Svc with the demo seed on a
// throwaway SQLite database, adds a few organizations, users and applications through the operator
// API (Acme Corp with single sign-on: a SAML connection whose IdP metadata carries a certificate made
// with openssl here, a Google connection and a domain claim), signs the demo user in as an operator in
// Chromium and saves each main page, the single sign-on pages, and the authorization section's resource
// tree and access tester (over a small FGA model made here) to docs/images/.
// Run after `npm run build`: `node scripts/console-screenshots.mjs`.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';

const port = 18_080;
const origin = `http://localhost:${port}`;
const data = mkdtempSync(join(tmpdir(), 'svc-screenshots-'));
const cli = 'packages/server/dist/cli/main.js';
const env = {
  ...process.env,
  SVC_PORT: String(port),
  SVC_DATABASE_URL: `sqlite:${join(data, 'svc.db')}`,
  SVC_DATA_DIR: data,
};

const server = spawn(process.execPath, [cli, 'serve', '--seed-demo'], {
  env,
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  await new Promise((resolve, reject) => {
    server.once('exit', (code) => reject(new Error(`svc serve exited with ${code}`)));
    server.stdout.on('data', (chunk) => {
      if (String(chunk).includes(origin)) resolve(undefined);
    });
  });
  const operator = spawnSync(process.execPath, [cli, 'operator', 'add', 'demo@demo.example'], { env });
  if (operator.status !== 0) throw new Error(String(operator.stderr));

  const token = readFileSync(join(data, 'admin.token'), 'utf8').trim();
  const post = (surface) => async (path, body) => {
    const response = await fetch(`${origin}/svc/admin/${surface}/api${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
    return response.json();
  };
  const admin = post('auth');
  const fga = post('fga');
  const organizations = [];
  for (const name of ['Acme Corp', 'Globex', 'Initech', 'Umbrella Health'])
    organizations.push(await admin('/organizations', { name }));
  const acme = organizations[0].id;
  const users = [];
  for (const [displayName, email] of [
    ['Ada Lovelace', 'ada@acme.example'],
    ['Grace Hopper', 'grace@globex.example'],
    ['Alan Turing', 'alan@initech.example'],
    ['Katherine Johnson', 'katherine@umbrella.example'],
  ]) {
    users.push(await admin('/users', { displayName, email, password: 'a long demo password' }));
  }
  await admin('/clients', {
    clientId: 'acme-portal',
    name: 'Acme customer portal',
    redirectUris: ['https://portal.acme.example/callback'],
    audience: 'https://api.acme.example',
    tokenEndpointAuthMethod: 'client_secret_basic',
  });

  // Acme's single sign-on: a SAML connection with its IdP's metadata, a Google connection, a domain claim.
  const saml = await admin(`/organizations/${acme}/sso-connections`, {
    displayName: 'Acme Okta',
    primaryDomain: 'acme.example',
    autoProvisionUsers: true,
  });
  await admin(`/sso-connections/${saml.id}/metadata`, { metadataXml: idpMetadata() });
  await admin('/oidc-connections', {
    providerType: 'Google',
    clientId: 'acme-google-client.apps.googleusercontent.com',
    clientSecret: 'a demo client secret',
    allowedCallbackUris: [`${origin}/svc/auth/oidc/callback`],
    organizationId: acme,
  });
  await admin(`/organizations/${acme}/domains`, { domain: 'acme.example' });

  // A small FGA model: Acme's workspace, a project and a document; its engineers may read below it.
  const workspace = await fga('/resource-types', { key: 'workspace', name: 'Workspace' });
  const project = await fga('/resource-types', { key: 'project', name: 'Project' });
  const document = await fga('/resource-types', { key: 'document', name: 'Document' });
  await fga('/permissions', { key: 'document.read', name: 'Read documents' });
  await fga('/permissions', { key: 'document.write', name: 'Write documents' });
  const viewer = await fga('/roles', { key: 'viewer', name: 'Viewer', permissionKeys: ['document.read'] });
  await fga('/roles', { key: 'editor', name: 'Editor', permissionKeys: ['document.read', 'document.write'] });
  const root = await fga('/resources', { name: 'Acme workspace', typeId: workspace.id, parentId: null });
  const roadmap = await fga('/resources', { name: 'Roadmap', typeId: project.id, parentId: root.id });
  await fga('/resources', { name: 'Q3 plan', typeId: document.id, parentId: roadmap.id });
  await fga('/resources', { name: 'Launch notes', typeId: document.id, parentId: roadmap.id });
  const hiring = await fga('/resources', { name: 'Hiring', typeId: project.id, parentId: root.id });
  await fga('/resources', { name: 'Interview guide', typeId: document.id, parentId: hiring.id });
  const engineers = await fga('/groups', { name: 'Acme engineers', organizationId: acme });
  await fga(`/groups/${engineers.id}/members/${users[0].id}`, {});
  await fga('/grants', { subjectId: engineers.id, roleId: viewer.id, resourceId: root.id });

  const browser = await chromium.launch({
    executablePath: process.env.SVC_CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const page = await browser.newPage({ viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  await page.goto(`${origin}/svc/`);
  await page.getByLabel('Email').fill('demo@demo.example');
  await page.getByRole('button', { name: /continue/i }).click();
  await page.getByLabel('Password', { exact: true }).fill('svc-demo-password');
  await page.getByRole('button', { name: /sign in/i }).click();
  await page.getByRole('navigation', { name: 'Sections' }).waitFor();
  for (const [path, name] of [
    ['/overview', 'overview'],
    ['/users', 'users'],
    ['/organizations', 'organizations'],
    ['/applications', 'applications'],
    ['/sessions', 'sessions'],
    ['/audit', 'audit'],
    ['/email', 'email'],
  ]) {
    await page.goto(`${origin}/svc${path}`);
    await page.getByRole('heading', { level: 1 }).waitFor();
    await page.waitForLoadState('networkidle');
    await page.screenshot({ path: `docs/images/console-${name}.png` });
    console.log(`docs/images/console-${name}.png`);
  }
  await page.goto(`${origin}/svc/organizations/${acme}?tab=sso`);
  await page.getByLabel('Email address', { exact: true }).fill('ada@acme.example');
  await page.getByRole('button', { name: 'Look up' }).click();
  await page.getByRole('status').getByRole('link', { name: 'Acme Okta' }).waitFor();
  await page.screenshot({ path: 'docs/images/console-sso.png' });
  console.log('docs/images/console-sso.png');
  await page.goto(`${origin}/svc/organizations/${acme}/saml/${saml.id}`);
  await page.getByRole('heading', { name: 'Signing certificates' }).waitFor();
  await page.screenshot({ path: 'docs/images/console-saml-connection.png' });
  console.log('docs/images/console-saml-connection.png');
  await page.goto(`${origin}/svc/authorization?resource=${roadmap.id}`);
  await page.getByRole('heading', { level: 2, name: 'Roadmap' }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: 'docs/images/console-resource-tree.png' });
  console.log('docs/images/console-resource-tree.png');
  await page.goto(`${origin}/svc/authorization?tab=access`);
  const tester = page.getByRole('region', { name: 'Access tester' });
  for (const [label, option] of [
    ['Subject', 'Ada Lovelace (User)'],
    ['Permission', 'document.read'],
    ['Resource', 'Q3 plan'],
  ]) {
    await tester.getByRole('button', { name: new RegExp(`${label}$`) }).click();
    await page.getByRole('option', { name: option, exact: true }).click();
  }
  await tester.getByRole('button', { name: 'Test access' }).click();
  await page.getByRole('status', { name: 'Access test result' }).getByText('Allowed').waitFor();
  await page.screenshot({ path: 'docs/images/console-access-tester.png' });
  console.log('docs/images/console-access-tester.png');
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(`${origin}/svc/users`);
  await page.getByRole('heading', { level: 1 }).waitFor();
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: 'docs/images/console-users-dark.png' });
  await browser.close();
} finally {
  server.kill();
  rmSync(data, { recursive: true, force: true });
}

/** An identity provider's SAML metadata with a signing certificate made now (openssl, one year). */
function idpMetadata() {
  const made = spawnSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-sha256',
    '-days',
    '365',
    '-subj',
    '/CN=idp.acme.example',
    '-keyout',
    join(data, 'idp.key'),
    '-out',
    join(data, 'idp.crt'),
  ]);
  if (made.status !== 0) throw new Error(String(made.stderr));
  const certificate = readFileSync(join(data, 'idp.crt'), 'utf8').replace(/-----[^-]+-----|\s/g, '');
  return `<md:EntityDescriptor xmlns:md="urn:oasis:names:tc:SAML:2.0:metadata" entityID="https://idp.acme.example/saml">
  <md:IDPSSODescriptor protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">
    <md:KeyDescriptor use="signing"><ds:KeyInfo xmlns:ds="http://www.w3.org/2000/09/xmldsig#"><ds:X509Data><ds:X509Certificate>${certificate}</ds:X509Certificate></ds:X509Data></ds:KeyInfo></md:KeyDescriptor>
    <md:SingleSignOnService Binding="urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect" Location="https://idp.acme.example/sso"/>
  </md:IDPSSODescriptor>
</md:EntityDescriptor>`;
}
