import {
  Button,
  Text,
  UNSTABLE_Toast as Toast,
  UNSTABLE_ToastContent as ToastContent,
  UNSTABLE_ToastQueue as ToastQueue,
  UNSTABLE_ToastRegion as ToastRegion,
} from 'react-aria-components';

interface Note {
  readonly title: string;
  readonly description?: string | undefined;
  readonly tone: 'success' | 'notice' | 'failure';
}

const queue = new ToastQueue<Note>({ maxVisibleToasts: 4 });

/** The results of the operator's actions, announced to screen readers and shown in a corner. */
export const notify = {
  success: (title: string, description?: string) =>
    queue.add({ title, description, tone: 'success' }, { timeout: 5000 }),
  /** What an action found that is no failure of it (a DNS record not published yet). */
  notice: (title: string, description?: string) =>
    queue.add({ title, description, tone: 'notice' }, { timeout: 8000 }),
  // A failure stays until dismissed: its reason is worth reading.
  failure: (title: string, description?: string) => queue.add({ title, description, tone: 'failure' }),
};

export function Toasts() {
  return (
    <ToastRegion queue={queue} className="toasts">
      {({ toast }) => (
        <Toast toast={toast} className={`toast toast-${toast.content.tone}`}>
          <ToastContent>
            <Text slot="title" className="toast-title">
              {toast.content.title}
            </Text>
            {toast.content.description !== undefined && (
              <Text slot="description">{toast.content.description}</Text>
            )}
          </ToastContent>
          <Button slot="close" aria-label="Dismiss" className="icon-button">
            ×
          </Button>
        </Toast>
      )}
    </ToastRegion>
  );
}
