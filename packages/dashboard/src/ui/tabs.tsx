import type { ReactNode } from 'react';
import { Tab, TabList, TabPanel, Tabs as AriaTabs } from 'react-aria-components';

export interface TabItem<K extends string> {
  readonly id: K;
  readonly label: string;
  readonly content: ReactNode;
}

/**
 * Views of one page, one shown at a time (arrow keys move between tabs); the page keeps the selected
 * tab in its link so that each view has one.
 */
export function Tabs<K extends string>(props: {
  readonly label: string;
  readonly selected: K;
  readonly onChange: (key: K) => void;
  readonly tabs: readonly TabItem<K>[];
}) {
  return (
    <AriaTabs
      className="tabs"
      selectedKey={props.selected}
      onSelectionChange={(key) => props.onChange(String(key) as K)}
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
