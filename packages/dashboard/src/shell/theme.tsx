import { useEffect, useState } from 'react';
import { ListBox, ListBoxItem, Popover, Select, SelectValue, Label, Button } from 'react-aria-components';

type Scheme = 'system' | 'light' | 'dark';
const KEY = 'svc-console-scheme';
const SCHEMES: readonly { id: Scheme; label: string }[] = [
  { id: 'system', label: 'System' },
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
];

function stored(): Scheme {
  const value = window.localStorage.getItem(KEY);
  return value === 'light' || value === 'dark' ? value : 'system';
}

/** Light, dark, or the system's choice; kept in this browser. The stylesheet reads `data-scheme`. */
export function SchemeSelect() {
  const [scheme, setScheme] = useState<Scheme>(stored);
  useEffect(() => {
    if (scheme === 'system') delete document.documentElement.dataset.scheme;
    else document.documentElement.dataset.scheme = scheme;
    window.localStorage.setItem(KEY, scheme);
  }, [scheme]);
  return (
    <Select
      className="scheme"
      selectedKey={scheme}
      onSelectionChange={(key) => setScheme(String(key) as Scheme)}
    >
      <Label className="visually-hidden">Colour scheme</Label>
      <Button className="select-button">
        <SelectValue />
        <span aria-hidden="true">▾</span>
      </Button>
      <Popover className="popover">
        <ListBox className="listbox" items={SCHEMES}>
          {(item) => (
            <ListBoxItem id={item.id} className="listbox-item">
              {item.label}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </Select>
  );
}
