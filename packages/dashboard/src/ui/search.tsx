import { useEffect, useState } from 'react';
import { Button, Input, Label, SearchField } from 'react-aria-components';

/**
 * A search box whose text reaches `onSearch` once typing pauses (a list is not fetched per keystroke);
 * Escape clears it.
 */
export function SearchBox(props: {
  readonly label: string;
  readonly value: string;
  readonly onSearch: (value: string) => void;
  readonly placeholder?: string;
}) {
  const [text, setText] = useState(props.value);
  useEffect(() => setText(props.value), [props.value]);
  useEffect(() => {
    if (text === props.value) return;
    const timer = window.setTimeout(() => props.onSearch(text.trim()), 250);
    return () => window.clearTimeout(timer);
  }, [text, props]);
  return (
    <SearchField className="field search" value={text} onChange={setText} onSubmit={props.onSearch}>
      <Label>{props.label}</Label>
      <div className="search-row">
        <Input placeholder={props.placeholder ?? ''} />
        {text !== '' && (
          <Button className="icon-button" aria-label="Clear search">
            ×
          </Button>
        )}
      </div>
    </SearchField>
  );
}
