import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from 'react-aria-components';

export interface TabItem<K extends string> {
  readonly id: K;
  readonly label: string;
  /** Mounted only while its tab is selected, so a panel's data is fetched when it is shown. */
  readonly content: ReactNode;
}

/**
 * The panels of a record's page, one shown at a time: arrow keys move between the tabs, Tab moves into
 * the panel. `selected` comes from the page's link (`?tab=…`), so each panel has a link of its own.
 */
export function Tabs<K extends string>(props: {
  readonly label: string;
  readonly tabs: readonly TabItem<K>[];
  readonly selected: K;
  readonly onSelect: (id: K) => void;
}) {
  return (
    <AriaTabs
      className="tabs"
      selectedKey={props.selected}
      onSelectionChange={(key) => props.onSelect(String(key) as K)}
    >
      <TabList aria-label={props.label} className="tab-list">
        {props.tabs.map((tab) => (
          <Tab key={tab.id} id={tab.id} className="tab">
            {tab.label}
          </Tab>
        ))}
      </TabList>
      {props.tabs.map((tab) => (
        <TabPanel key={tab.id} id={tab.id} className="tab-panel">
          {tab.content}
        </TabPanel>
      ))}
    </AriaTabs>
  );
}
