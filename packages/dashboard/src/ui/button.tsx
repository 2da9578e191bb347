import type { ReactNode } from 'react';
import {
  Button as AriaButton,
  Link as AriaLink,
  type ButtonProps,
  type LinkProps,
} from 'react-aria-components';

type Tone = 'primary' | 'secondary' | 'danger' | 'quiet';

/** A button of the console; `tone` picks its look (primary for the page's main action). */
export function Button(props: ButtonProps & { readonly tone?: Tone; readonly children?: ReactNode }) {
  const { tone = 'secondary', className, ...rest } = props;
  return <AriaButton {...rest} className={`button button-${tone}${className ? ` ${className}` : ''}`} />;
}

/** A link that looks like a button (a navigation, not an action). */
export function ButtonLink(props: LinkProps & { readonly tone?: Tone; readonly children?: ReactNode }) {
  const { tone = 'secondary', ...rest } = props;
  return <AriaLink {...rest} className={`button button-${tone}`} />;
}
