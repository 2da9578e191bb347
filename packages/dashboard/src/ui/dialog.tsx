import { useState, type ReactNode } from 'react';
import { Dialog, DialogTrigger, Heading, Modal, ModalOverlay } from 'react-aria-components';
import { Button } from './button.js';
import { DialogButtons, ErrorText } from './form-parts.js';
import { useCall } from './use-call.js';

/**
 * A modal dialog opened by its trigger button: a title and the content, which gets `close`. Escape and
 * a click outside close it; focus stays inside while it is open and returns to the trigger after.
 */
export function ModalDialog(props: {
  readonly trigger: ReactNode;
  readonly title: string;
  readonly children: (close: () => void) => ReactNode;
  readonly isOpen?: boolean | undefined;
  readonly onOpenChange?: ((open: boolean) => void) | undefined;
  /** False while closing by Escape or a click outside would lose something (a secret shown once). */
  readonly isDismissable?: boolean;
}) {
  const dismissable = props.isDismissable ?? true;
  return (
    <DialogTrigger
      {...(props.isOpen === undefined ? {} : { isOpen: props.isOpen })}
      {...(props.onOpenChange === undefined ? {} : { onOpenChange: props.onOpenChange })}
    >
      {props.trigger}
      <ModalOverlay
        className="modal-overlay"
        isDismissable={dismissable}
        isKeyboardDismissDisabled={!dismissable}
      >
        <Modal className="modal">
          <Dialog className="dialog">
            {({ close }) => (
              <>
                <Heading slot="title">{props.title}</Heading>
                {props.children(close)}
              </>
            )}
          </Dialog>
        </Modal>
      </ModalOverlay>
    </DialogTrigger>
  );
}

/**
 * A destructive or far-reaching action behind a confirmation that says what it will do. `run` is the
 * action; while it runs the buttons wait, and a refusal is shown in the dialog (the server's message).
 */
export function ConfirmButton(props: {
  /** The trigger's text, such as "Deactivate". */
  readonly label: string;
  readonly title: string;
  /** What the action does, in full: what ends, who is affected, whether it can be undone. */
  readonly children: ReactNode;
  readonly confirmLabel?: string;
  readonly tone?: 'danger' | 'primary';
  readonly triggerTone?: 'secondary' | 'danger' | 'quiet';
  readonly isDisabled?: boolean;
  readonly run: () => Promise<unknown>;
}) {
  const [open, setOpen] = useState(false);
  const call = useCall();
  const confirm = async () => {
    if (await call.run(props.run)) setOpen(false);
  };
  return (
    <ModalDialog
      isOpen={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) call.clearError();
      }}
      title={props.title}
      trigger={
        <Button tone={props.triggerTone ?? 'secondary'} isDisabled={props.isDisabled ?? false}>
          {props.label}
        </Button>
      }
    >
      {(close) => (
        <>
          <div className="dialog-body">{props.children}</div>
          <ErrorText message={call.error} />
          <DialogButtons
            close={close}
            pending={call.pending}
            tone={props.tone ?? 'danger'}
            onPress={() => void confirm()}
          >
            {props.confirmLabel ?? props.label}
          </DialogButtons>
        </>
      )}
    </ModalDialog>
  );
}
