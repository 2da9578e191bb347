import { emailTemplateListSchema, type EmailTemplateView } from '@svc/contract';
import { useRecord, type ListState } from '../../data/queries.js';
import { Badge, Time } from '../../ui/format.js';
import { EmptyState, Page, Panel } from '../../ui/page.js';
import { DataTable, type TableColumn } from '../../ui/table.js';
import { Deliveries } from './deliveries.js';
import { TestSend } from './test-send.js';

const COLUMNS: readonly TableColumn<EmailTemplateView>[] = [
  { id: 'description', label: 'Template', cell: (template) => template.description, isRowHeader: true },
  { id: 'key', label: 'Key', cell: (template) => <code>{template.key}</code> },
  {
    id: 'overridden',
    label: 'Content',
    cell: (template) => <Badge on={template.overridden} yes="Overridden" no="Built-in" />,
  },
  { id: 'updated', label: 'Changed', cell: (template) => <Time iso={template.updatedAt} /> },
];

const useTemplates = () => useRecord('email', '/templates', emailTemplateListSchema);

/** The templates as a table's list: all of them in one answer, nothing more to load. */
function templateList(record: ReturnType<typeof useTemplates>): ListState<EmailTemplateView> {
  return {
    items: record.data?.data ?? [],
    isPending: record.isPending,
    error: record.error,
    hasMore: false,
    isFetchingMore: false,
    loadMore: () => undefined,
    retry: () => void record.refetch(),
  };
}

/** The email Svc sends: its templates (each with the operator's override), a test send, the delivery log. */
export function EmailPage() {
  const templates = useTemplates();
  return (
    <Page title="Email" description="The messages Svc sends, what they say, and whether they arrived.">
      <Panel title="Templates">
        <DataTable
          label="Templates"
          columns={COLUMNS}
          list={templateList(templates)}
          rowKey={(template) => template.key}
          rowHref={(template) => `/email/templates/${encodeURIComponent(template.key)}`}
          empty={<EmptyState title="No templates." />}
        />
      </Panel>
      <TestSend />
      <Deliveries templates={templates.data?.data ?? []} />
    </Page>
  );
}
