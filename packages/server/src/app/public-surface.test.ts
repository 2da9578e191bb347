import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * What a host may rely on (docs/reference/configuration.md "Embedding"): the members of SvcServices and Svc
 * that the published declarations keep. Every other member is tagged internal and stripped; a new member
 * is public only when it is listed here.
 */
const PUBLIC_MEMBERS = {
  'services.ts': {
    SvcServices: ['admin', 'auth', 'audit', 'tokens', 'calendar', 'fga', 'sso', 'readiness'],
    Svc: ['config', 'demo', 'plugin', 'app', 'handler', 'housekeeping', 'listen', 'close'],
  },
} as const;

const tsconfig = JSON.parse(readFileSync(new URL('../../tsconfig.json', import.meta.url), 'utf8')) as {
  compilerOptions: { stripInternal?: boolean };
};

/** The members of `name` in the declaration file the build emits for `file`. */
function declaredMembers(file: string, name: string): string[] {
  const source = readFileSync(new URL(file, import.meta.url), 'utf8');
  const { outputText } = ts.transpileDeclaration(source, {
    compilerOptions: { stripInternal: tsconfig.compilerOptions.stripInternal === true },
  });
  const declarations = ts.createSourceFile(`${file}.d.ts`, outputText, ts.ScriptTarget.Latest);
  const found = declarations.statements.find(
    (statement): statement is ts.InterfaceDeclaration =>
      ts.isInterfaceDeclaration(statement) && statement.name.text === name,
  );
  return (found?.members ?? []).map((member) => member.name?.getText(declarations) ?? '');
}

describe('the public surface of createSvc()', () => {
  for (const [file, interfaces] of Object.entries(PUBLIC_MEMBERS)) {
    for (const [name, members] of Object.entries(interfaces)) {
      it(`publishes only the listed members of ${name}`, () => {
        expect(declaredMembers(file, name)).toEqual(members);
      });
    }
  }
});
