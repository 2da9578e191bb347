import { Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { Button } from './button.js';

export interface MenuAction {
  readonly id: string;
  readonly label: string;
  readonly onAction: () => void;
  readonly isDisabled?: boolean;
}

/** A button that opens a menu of actions (arrow keys move, Enter runs, Escape closes). */
export function ActionMenu(props: { readonly label: string; readonly actions: readonly MenuAction[] }) {
  return (
    <MenuTrigger>
      <Button tone="secondary">{props.label} ▾</Button>
      <Popover className="popover">
        <Menu
          className="menu"
          items={props.actions}
          disabledKeys={props.actions.filter((action) => action.isDisabled).map((action) => action.id)}
          onAction={(key) => props.actions.find((action) => action.id === key)?.onAction()}
        >
          {(action) => (
            <MenuItem id={action.id} className="menu-item">
              {action.label}
            </MenuItem>
          )}
        </Menu>
      </Popover>
    </MenuTrigger>
  );
}
