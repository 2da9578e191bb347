import { useEffect, useState, type ReactNode } from 'react';
import {
  Button as AriaButton,
  ComboBox,
  FieldError,
  Input,
  Label,
  ListBox,
  ListBoxItem,
  Popover,
  Text,
} from 'react-aria-components';
import type { z } from 'zod';
import type { QueryValues, Surface } from '../api/client.js';
import { useList } from '../data/queries.js';

/** How many records the picker offers at a time: enough to choose from, few enough to read. */
const OFFERED = 20;

/**
 * A searchable choice of one record of an operator list (`GET /users?query=`): the typed text is the
 * list's `query` once typing pauses, the server finds the matches, and the keyboard moves through them
 * (React Aria's ComboBox). `selected` is the chosen record, kept among the options so that its name
 * stays in the box; the clear button chooses none.
 */
export function RecordPicker<S extends z.ZodType>(props: {
  readonly label: string;
  readonly path: string;
  readonly schema: S;
  readonly surface?: Surface;
  /** Further filters of the list, beside `query`. */
  readonly query?: QueryValues;
  readonly itemId: (item: z.output<S>) => string;
  /** What the box shows for a record once it is chosen. */
  readonly itemText: (item: z.output<S>) => string;
  /** A second line in the options (an email, a slug). */
  readonly itemDetail?: (item: z.output<S>) => ReactNode;
  readonly selected: z.output<S> | null;
  readonly onChange: (item: z.output<S> | null) => void;
  readonly placeholder?: string;
  readonly description?: ReactNode;
  readonly errorMessage?: string | undefined;
  readonly isRequired?: boolean;
}) {
  const { selected, itemId, itemText } = props;
  const selectedText = selected === null ? '' : itemText(selected);
  const [text, setText] = useState(selectedText);
  const [search, setSearch] = useState('');
  useEffect(() => setText(selectedText), [selectedText]);
  useEffect(() => {
    // The chosen record's own name searches for nothing: the options then show the others too.
    const next = text.trim() === selectedText ? '' : text.trim();
    const timer = window.setTimeout(() => setSearch(next), 250);
    return () => window.clearTimeout(timer);
  }, [text, selectedText]);
  const list = useList(props.surface ?? 'auth', props.path, props.schema, {
    ...props.query,
    query: search,
    limit: OFFERED,
  });
  const found = list.items;
  const items =
    selected === null || found.some((item) => itemId(item) === itemId(selected))
      ? found
      : [selected, ...found];
  return (
    <ComboBox
      className="field picker"
      items={items.map((item) => ({ id: itemId(item), item }))}
      inputValue={text}
      onInputChange={setText}
      selectedKey={selected === null ? null : itemId(selected)}
      onSelectionChange={(key) => {
        if (key === null) return;
        props.onChange(items.find((item) => itemId(item) === key) ?? null);
      }}
      menuTrigger="focus"
      allowsEmptyCollection
      isRequired={props.isRequired ?? false}
      isInvalid={props.errorMessage !== undefined}
      validationBehavior="aria"
    >
      <Label>{props.label}</Label>
      <div className="search-row">
        <Input placeholder={props.placeholder ?? ''} />
        {selected !== null && (
          <AriaButton
            className="icon-button"
            aria-label={`Clear ${props.label.toLowerCase()}`}
            onPress={() => {
              setText('');
              props.onChange(null);
            }}
          >
            ×
          </AriaButton>
        )}
        <AriaButton className="icon-button" aria-label={`Show ${props.label.toLowerCase()} choices`}>
          <span aria-hidden="true">▾</span>
        </AriaButton>
      </div>
      {props.description !== undefined && <Text slot="description">{props.description}</Text>}
      <FieldError>{props.errorMessage}</FieldError>
      <Popover className="popover">
        <ListBox
          className="listbox"
          renderEmptyState={() => (
            <p className="listbox-empty muted">
              {list.isPending ? 'Searching…' : list.error === null ? 'Nothing matches.' : list.error.message}
            </p>
          )}
        >
          {({ id, item }: { id: string; item: z.output<S> }) => (
            <ListBoxItem id={id} textValue={itemText(item)} className="listbox-item">
              {/* No label slot: the option's name is all it shows, the detail too. */}
              <span className="picker-text">{itemText(item)}</span>
              {props.itemDetail !== undefined && (
                <span className="picker-detail muted">{props.itemDetail(item)}</span>
              )}
            </ListBoxItem>
          )}
        </ListBox>
      </Popover>
    </ComboBox>
  );
}
