import type { SvcFgaResource } from '@svc/contract';
import { useMemo } from 'react';
import { apiSend, noBody } from '../../api/client.js';
import { useAction } from '../../data/queries.js';
import { Button } from '../../ui/button.js';
import { ConfirmButton, ModalDialog } from '../../ui/dialog.js';
import { Facts, EmptyState, Loading, Panel } from '../../ui/page.js';
import { Id } from '../../ui/format.js';
import { fgaPaths, nameOf, useResources, useResourceTypes } from './fga-data.js';
import { CreateResourceForm, MoveResourceForm } from './resource-forms.js';
import { ResourceGrants } from './grants-panel.js';

type Children = ReadonlyMap<string | null, readonly SvcFgaResource[]>;

function childrenOf(resources: readonly SvcFgaResource[]): Children {
  const known = new Set(resources.map((resource) => resource.id));
  const map = new Map<string | null, SvcFgaResource[]>();
  for (const resource of resources) {
    // A parent not in the list (deleted meanwhile) would hide its children: show them as roots.
    const parent = resource.parentId !== null && known.has(resource.parentId) ? resource.parentId : null;
    map.set(parent, [...(map.get(parent) ?? []), resource]);
  }
  for (const list of map.values()) list.sort((a, b) => a.name.localeCompare(b.name));
  return map;
}

/** One level of the tree as a nested list: each resource a button that selects it, with its type. */
function Branch(props: {
  readonly parent: string | null;
  readonly children: Children;
  readonly typeName: (typeId: string) => string;
  readonly selected: string | undefined;
  readonly onSelect: (id: string) => void;
}) {
  const items = props.children.get(props.parent) ?? [];
  if (items.length === 0) return null;
  return (
    <ul className="resource-tree">
      {items.map((resource) => (
        <li key={resource.id}>
          <button
            type="button"
            className="resource-node"
            aria-current={resource.id === props.selected ? 'true' : undefined}
            onClick={() => props.onSelect(resource.id)}
          >
            {resource.name} <span className="muted">{props.typeName(resource.typeId)}</span>
          </button>
          <Branch {...props} parent={resource.id} />
        </li>
      ))}
    </ul>
  );
}

function SelectedResource(props: {
  readonly resource: SvcFgaResource;
  readonly resources: readonly SvcFgaResource[];
  readonly typeName: (typeId: string) => string;
  readonly onSelect: (id: string | undefined) => void;
}) {
  const { resource, resources } = props;
  const remove = useAction({
    surface: 'fga',
    run: () => apiSend('DELETE', 'fga', fgaPaths.resource(resource.id), undefined, noBody),
    refresh: [fgaPaths.resources],
    success: `Deleted ${resource.name}.`,
    quiet: true,
    onSuccess: () => props.onSelect(undefined),
  });
  const path: string[] = [];
  for (let at: string | null = resource.parentId; at !== null && path.length < 32;) {
    path.unshift(nameOf(resources, at));
    at = resources.find((other) => other.id === at)?.parentId ?? null;
  }
  return (
    <Panel
      title={resource.name}
      actions={
        <>
          <ModalDialog title={`A resource under ${resource.name}`} trigger={<Button>Add child</Button>}>
            {(close) => (
              <CreateResourceForm
                parentId={resource.id}
                close={close}
                created={(child) => props.onSelect(child.id)}
              />
            )}
          </ModalDialog>
          <ModalDialog title={`Move ${resource.name}`} trigger={<Button>Move</Button>}>
            {(close) => <MoveResourceForm resource={resource} close={close} />}
          </ModalDialog>
          <ConfirmButton
            label="Delete"
            title={`Delete ${resource.name}?`}
            tone="danger"
            run={() => remove.mutateAsync(undefined)}
          >
            <p>
              The resource and its grants are deleted. A resource with children, or named by a SCIM rule or
              boundary, is refused: move or delete those first.
            </p>
          </ConfirmButton>
        </>
      }
    >
      <Facts
        items={[
          ['ID', <Id value={resource.id} />],
          ['Type', props.typeName(resource.typeId)],
          ['Under', path.length === 0 ? 'Nothing: a root' : path.join(' › ')],
        ]}
      />
      <ResourceGrants resourceId={resource.id} />
    </Panel>
  );
}

/** The resource tree at a glance, and the selected resource with its grants. */
export function ResourceTreePanel(props: {
  readonly selected: string | undefined;
  readonly onSelect: (id: string | undefined) => void;
}) {
  const resources = useResources();
  const types = useResourceTypes();
  const children = useMemo(() => childrenOf(resources.data ?? []), [resources.data]);
  const typeName = (typeId: string) => nameOf(types.data, typeId);
  const selected = resources.data?.find((resource) => resource.id === props.selected);
  return (
    <>
      <Panel
        title="Resource tree"
        actions={
          <ModalDialog title="New resource" trigger={<Button tone="primary">New resource</Button>}>
            {(close) => (
              <CreateResourceForm
                parentId={undefined}
                close={close}
                created={(created) => props.onSelect(created.id)}
              />
            )}
          </ModalDialog>
        }
      >
        <p className="hint">A role granted on a resource holds on everything below it.</p>
        {resources.data === undefined ? (
          <Loading error={resources.error} retry={() => void resources.refetch()} />
        ) : resources.data.length === 0 ? (
          <EmptyState title="No resources.">
            Add a resource type under Types and roles, then a root resource such as a workspace.
          </EmptyState>
        ) : (
          <nav aria-label="Resource tree">
            <Branch
              parent={null}
              children={children}
              typeName={typeName}
              selected={props.selected}
              onSelect={props.onSelect}
            />
          </nav>
        )}
      </Panel>
      {selected !== undefined && (
        <SelectedResource
          resource={selected}
          resources={resources.data ?? []}
          typeName={typeName}
          onSelect={props.onSelect}
        />
      )}
    </>
  );
}
