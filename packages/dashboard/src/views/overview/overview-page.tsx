import { auditSummarySchema, type AuditSummary, type AuditSummaryCategory } from '@svc/contract';
import { getRouteApi, Link } from '@tanstack/react-router';
import { useRecord } from '../../data/queries.js';
import { BarChart, type Bar } from '../../ui/bar-chart.js';
import { plural } from '../../ui/format.js';
import { Loading, Page, Panel } from '../../ui/page.js';

const route = getRouteApi('/overview');

type Window = AuditSummary['window'];

const WINDOWS: readonly { readonly id: Window; readonly label: string; readonly words: string }[] = [
  { id: '24h', label: '24 hours', words: 'the last 24 hours' },
  { id: '7d', label: '7 days', words: 'the last 7 days' },
];

/** What the overview counts; which audit kinds each category is, the summary's `kinds` says. */
const CATEGORIES: readonly {
  readonly id: AuditSummaryCategory;
  readonly title: string;
  readonly noun: string;
}[] = [
  { id: 'signIns', title: 'Sign-ins', noun: 'sign-in' },
  { id: 'failedSignIns', title: 'Failed sign-ins', noun: 'failed sign-in' },
  { id: 'throttled', title: 'Throttled attempts', noun: 'throttled attempt' },
  { id: 'newUsers', title: 'New users', noun: 'new user' },
];

interface TimedBar extends Bar {
  readonly from: string;
  readonly to: string;
}

type Bucket = AuditSummary['buckets'][number];

const clock = (iso: string) =>
  new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
// The summary's days are UTC days: named in UTC, or west of it a day would read as the one before.
const day = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });

function barsOf(summary: AuditSummary, value: (bucket: Bucket) => number): TimedBar[] {
  const hourly = summary.bucket === 'hour';
  return summary.buckets.map((bucket, index) => {
    const to = summary.buckets[index + 1]?.start ?? summary.to;
    return {
      key: bucket.start,
      from: bucket.start,
      to,
      label: hourly ? clock(bucket.start) : day(bucket.start),
      span: hourly ? `${clock(bucket.start)} to ${clock(to)}` : day(bucket.start),
      value: value(bucket),
    };
  });
}

type Category = (typeof CATEGORIES)[number];

const wordsOf = (summary: AuditSummary) =>
  WINDOWS.find((window) => window.id === summary.window)?.words ?? '';

/** The chart in a sentence: the total and the busiest bucket. */
function summaryOf(
  summary: AuditSummary,
  category: Category,
  bars: readonly TimedBar[],
  words: string,
): string {
  const total = summary.totals[category.id];
  if (total === 0) return `No ${category.noun}s in ${words}.`;
  const top = bars.reduce((best, bar) => (bar.value > best.value ? bar : best));
  const when = summary.bucket === 'hour' ? `from ${top.span}` : `on ${top.span}`;
  return `${plural(total, category.noun)} in ${words}; the most, ${top.value.toLocaleString()}, ${when}.`;
}

function CategoryPanel(props: { readonly summary: AuditSummary; readonly category: Category }) {
  const { summary, category } = props;
  const kind = summary.kinds[category.id];
  const bars = barsOf(summary, (bucket) => bucket[category.id]);
  const words = wordsOf(summary);
  const total = summary.totals[category.id];
  const per = `${category.title} per ${summary.bucket}`;
  return (
    <Panel title={category.title}>
      <p className="stat">
        <Link to="/audit" search={{ kind, from: summary.from, to: summary.to }}>
          <span className="stat-value">{total.toLocaleString()}</span>{' '}
          {total === 1 ? category.noun : `${category.noun}s`}
        </Link>{' '}
        <span className="muted">in {words}</span>
      </p>
      <BarChart
        label={per}
        summary={summaryOf(summary, category, bars, words)}
        bars={bars}
        unit={(value) => plural(value, category.noun)}
        tableTitle={per}
        spanTitle={summary.bucket === 'hour' ? 'Hour' : 'Day (UTC)'}
        link={(bar, linkProps) => (
          <Link to="/audit" search={{ kind, from: bar.from, to: bar.to }} {...linkProps} />
        )}
      />
    </Panel>
  );
}

/**
 * The token sessions usable at the end of each hour or day (the last bar: now). Nothing to link a bar
 * to: the sessions list shows the sessions as they are now.
 */
function SessionsPanel(props: { readonly summary: AuditSummary }) {
  const { summary } = props;
  const last = summary.buckets.length - 1;
  const bars = barsOf(summary, (bucket) => bucket.activeSessions).map((bar, index) => ({
    ...bar,
    span:
      index === last
        ? 'now'
        : summary.bucket === 'hour'
          ? `at ${clock(bar.to)}`
          : `at the end of ${bar.span}`,
  }));
  const top = bars.reduce((best, bar) => (bar.value > best.value ? bar : best));
  const words = wordsOf(summary);
  const now = summary.activeSessions;
  const per = `Active sessions at the end of each ${summary.bucket}`;
  return (
    <Panel title="Active sessions">
      <p className="stat">
        <Link to="/sessions" search={{ status: 'active' }}>
          <span className="stat-value">{now.toLocaleString()}</span>{' '}
          {now === 1 ? 'active session' : 'active sessions'}
        </Link>{' '}
        <span className="muted">now</span>
      </p>
      <BarChart
        label={per}
        summary={
          top.value === 0
            ? `No active sessions in ${words}.`
            : `${plural(now, 'active session')} now; the most in ${words}, ${top.value.toLocaleString()}, ${top.span}.`
        }
        bars={bars}
        unit={(value) => plural(value, 'active session')}
        tableTitle={per}
        spanTitle="When"
      />
      {summary.bucket === 'day' && (
        <p className="hint">
          Sessions that ended more than a day ago are deleted, so earlier days count only those still stored.
        </p>
      )}
    </Panel>
  );
}

/**
 * What happened lately, from the audit stream: sign-ins, failed and throttled attempts and new users per
 * hour (24 hours) or day (7 days), each bar a link to the events it counts, and the token sessions
 * usable at the end of each hour or day, now included.
 */
export function OverviewPage() {
  const { window } = route.useSearch();
  const summary = useRecord('audit', '/events/summary', auditSummarySchema, { window });
  return (
    <Page
      title="Overview"
      description="Sign-ins, refusals and new users from the audit stream."
      actions={
        <nav aria-label="Window" className="segmented">
          {WINDOWS.map((choice) => (
            <Link
              key={choice.id}
              to="/overview"
              search={{ window: choice.id }}
              className="segment"
              aria-current={choice.id === window ? 'page' : undefined}
            >
              {choice.label}
            </Link>
          ))}
        </nav>
      }
    >
      {summary.data === undefined ? (
        <Loading error={summary.error} retry={() => void summary.refetch()} />
      ) : (
        <div className="overview-grid">
          {CATEGORIES.map((category) => (
            <CategoryPanel key={category.id} summary={summary.data} category={category} />
          ))}
          <SessionsPanel summary={summary.data} />
        </div>
      )}
    </Page>
  );
}
