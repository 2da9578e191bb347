import { fgaAccessTestBodySchema, svcFgaAccessTestResultSchema } from '@svc/contract';
import { useState } from 'react';
import type { z } from 'zod';
import { apiSend } from '../../api/client.js';
import { SelectField } from '../../ui/fields.js';
import { FormActions } from '../../ui/form-parts.js';
import { useContractForm } from '../../ui/form.js';
import { Panel } from '../../ui/page.js';
import { useSubjectChoices } from './grants-panel.js';
import {
  fgaPaths,
  nameOf,
  resourceChoices,
  useGroups,
  usePermissions,
  useResources,
  useSubjects,
} from './fga-data.js';

type Result = z.output<typeof svcFgaAccessTestResultSchema>;

interface Asked {
  readonly subject: string;
  readonly permission: string;
  readonly resource: string;
}

/** The answer, and for an allowed one the grant that decided it and the way up the tree to it. */
function Answer(props: { readonly result: Result; readonly asked: Asked }) {
  const { result, asked } = props;
  const resources = useResources();
  const groups = useGroups();
  const subjects = useSubjects();
  const subject = nameOf(subjects.data, asked.subject);
  const resource = nameOf(resources.data, asked.resource);
  const explanation = result.explanation;
  return (
    <div
      role="status"
      aria-label="Access test result"
      className={result.allowed ? 'notice notice-ok' : 'notice notice-error'}
    >
      <p>
        <strong>{result.allowed ? 'Allowed' : 'Denied'}</strong>: {subject}{' '}
        {result.allowed ? 'may' : 'may not'} {asked.permission} on {resource}.
      </p>
      {explanation === null ? (
        <p>No grant of a role with this permission, to them or a group of theirs, on it or above it.</p>
      ) : (
        <>
          <p>
            Decided by the grant <code className="id">{explanation.grantId}</code> of the role{' '}
            <code className="id">{explanation.roleKey}</code> on{' '}
            {nameOf(resources.data, explanation.grantedOnResourceId)}
            {explanation.viaGroupId === null
              ? ', held directly.'
              : `, held through the group ${nameOf(groups.data, explanation.viaGroupId)}.`}
          </p>
          <ol className="access-path" aria-label="From the resource up to the grant">
            {explanation.path.map((id, index) => (
              <li key={id}>
                {nameOf(resources.data, id)}
                {index === 0 && index < explanation.path.length - 1 && ' (asked about)'}
                {index > 0 && index < explanation.path.length - 1 && ' (parent)'}
                {index === explanation.path.length - 1 && ` (granted ${explanation.roleKey} here)`}
              </li>
            ))}
          </ol>
        </>
      )}
    </div>
  );
}

/** May a subject do something on a resource? The check's answer and why. */
export function AccessTester() {
  const subjects = useSubjectChoices();
  const permissions = usePermissions();
  const resources = useResources();
  const [answer, setAnswer] = useState<{ result: Result; asked: Asked }>();
  const form = useContractForm({
    schema: fgaAccessTestBodySchema,
    initial: { subjectId: '', permissionKey: '', resourceId: '' },
    toBody: (values) => values,
    submit: async (body) => {
      setAnswer(undefined);
      const result = await apiSend('POST', 'fga', fgaPaths.accessTest, body, svcFgaAccessTestResultSchema);
      setAnswer({
        result,
        asked: { subject: body.subjectId, permission: body.permissionKey, resource: body.resourceId },
      });
    },
  });
  return (
    <Panel title="Access tester">
      <p className="hint">
        The answer your application gets from the check, with the grant and the parents that decided it.
      </p>
      <form onSubmit={form.onSubmit} noValidate className="settings-form">
        <SelectField label="Subject" field={form.field('subjectId')} choices={subjects} />
        <SelectField
          label="Permission"
          field={form.field('permissionKey')}
          choices={(permissions.data ?? []).map((permission) => ({
            id: permission.key,
            label: permission.key,
          }))}
        />
        <SelectField
          label="Resource"
          field={form.field('resourceId')}
          choices={resourceChoices(resources.data)}
        />
        <FormActions form={form} submit="Test access" />
      </form>
      {answer !== undefined && <Answer result={answer.result} asked={answer.asked} />}
    </Panel>
  );
}
