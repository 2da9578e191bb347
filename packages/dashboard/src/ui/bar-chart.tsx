import { Fragment, type ReactNode } from 'react';

export interface Bar {
  readonly key: string;
  /** The bar's place on the axis, short ("14:00", "Mon 3"). */
  readonly label: string;
  /** The span it counts, in words ("14:00 to 15:00"). */
  readonly span: string;
  readonly value: number;
}

/**
 * What a link of the chart gets: a bar's has its look, its tooltip and no tab stop of its own (and no
 * content: it is the bar's column, over the bar); a table cell's only its text.
 */
export type BarLinkProps =
  | { readonly className: string; readonly title: string; readonly tabIndex: -1; readonly children?: never }
  | { readonly children: ReactNode };

/**
 * A bar chart of counts, each bar a link (`link` renders it, usually a router Link to the records it
 * counts), or only its tooltip when there is nothing to link to (no `link`). To assistive technology the chart is one image named by `label` and `summary`; the bars'
 * links lie over it, hidden from it and out of the tab order (they are the mouse's way in), and the
 * numbers are a table of the same links below, behind a disclosure, which is how the keyboard and
 * screen readers reach them. Heights are style properties (set through the CSSOM, which the page's CSP
 * does not govern).
 */
export function BarChart<B extends Bar>(props: {
  readonly label: string;
  readonly summary: string;
  readonly bars: readonly B[];
  /** The count with its noun ("3 sign-ins"). */
  readonly unit: (value: number) => string;
  readonly link?: ((bar: B, props: BarLinkProps) => ReactNode) | undefined;
  /** The disclosure's title ("Sign-ins per hour"). */
  readonly tableTitle: string;
  readonly spanTitle: string;
}) {
  const max = Math.max(1, ...props.bars.map((bar) => bar.value));
  const link = props.link ?? ((_bar: B, linkProps: BarLinkProps) => <span {...linkProps} />);
  const axis = [props.bars[0], props.bars[Math.floor(props.bars.length / 2)], props.bars.at(-1)];
  return (
    <figure className="bar-chart">
      <div className="bar-area">
        <div className="bars" role="img" aria-label={`${props.label}: ${props.summary}`}>
          {props.bars.map((bar) => (
            <span key={bar.key} className="bar-slot">
              <span
                className={bar.value === 0 ? 'bar bar-empty' : 'bar'}
                style={{ height: `${(bar.value / max) * 100}%` }}
              />
            </span>
          ))}
        </div>
        <div className="bar-links" aria-hidden="true">
          {props.bars.map((bar) => (
            <Fragment key={bar.key}>
              {link(bar, {
                className: 'bar-link',
                title: `${bar.span}: ${props.unit(bar.value)}`,
                tabIndex: -1,
              })}
            </Fragment>
          ))}
        </div>
      </div>
      <div className="bar-axis" aria-hidden="true">
        {axis.map((bar, index) => (
          <span key={index}>{bar?.label}</span>
        ))}
      </div>
      <figcaption className="muted">{props.summary}</figcaption>
      <details className="bar-numbers">
        <summary>{props.tableTitle}</summary>
        <table className="table">
          <thead>
            <tr>
              <th scope="col">{props.spanTitle}</th>
              <th scope="col">Count</th>
            </tr>
          </thead>
          <tbody>
            {props.bars.map((bar) => (
              <tr key={bar.key}>
                <th scope="row">{bar.span}</th>
                <td>{link(bar, { children: bar.value.toLocaleString() })}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
